//! The Servers view keeps its shape whatever a server shows: a server that fails with a
//! long reason (its command and arguments are long) leaves every card inside the list's
//! column, and the buttons on each card take the clicks aimed at them, at the narrowest
//! window the app supports. And no view scrolls the window itself: what does not fit
//! scrolls inside its pane, the sidebar and status bar stay in place; nor shows a control
//! in the browser's native look instead of the design system's (`ui/src/design.css`).

use serde_json::json;

use crate::support::window::{App, SHOWN, system_speaking, until};

/// The narrowest window the app is laid out for.
const NARROW: u32 = 800;

/// A command that does not exist, long enough to make its failure's reason long.
fn missing_command() -> String {
    format!(
        "/nonexistent/{}/mcp-server-that-is-not-installed-anywhere-on-this-machine",
        "a-very-deeply-nested-folder-name".repeat(4)
    )
}

const LONG_NAME: &str = "a-server-with-a-rather-long-name-that-does-not-start";

#[test]
fn long_failures_and_commands_stay_inside_the_server_list() {
    long_failures(None, "Failed:", "");
}

/// In Chinese, the failure said in Chinese (`servers-long-failure-selected-zh-CN.png`), the
/// system's words and the path in it as they came.
#[test]
fn long_failures_stay_inside_the_server_list_in_chinese() {
    long_failures(Some("zh_CN.UTF-8"), "失败：无法启动", "-zh-CN");
}

/// A server that cannot start, with a long name and a long command, beside the demo
/// server, with the system's locale `system`; its badge's title begins with `failed`.
fn long_failures(system: Option<&str>, failed: &str, suffix: &str) {
    let app = App::start_with(|dir| {
        let config = json!({"mcpServers": {
            "demo": {"command": "switchboard-demo-server"},
            LONG_NAME: {
                "command": missing_command(),
                "args": ["--an-argument-that-goes-on".repeat(6), "--and-another=".repeat(5)],
                "restart": {"maxRestarts": 0},
            },
        }});
        std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
        system.map(system_speaking).unwrap_or_default()
    });
    let w = &app.window;
    // Checked at that width or not at all: a check at the default width would pass
    // whatever the narrow layout does.
    assert!(
        w.set_window_size(NARROW, 700),
        "the driver could not make the window {NARROW} px wide"
    );
    app.wait_running("demo");
    w.wait_for_text(
        &format!(".server-list li[data-server='{LONG_NAME}'] .status-bad"),
        "",
        SHOWN,
    );
    let width = w.execute("return window.innerWidth;", json!([]));
    let width = width.as_f64().expect("the window's width");
    assert!(
        width <= f64::from(NARROW),
        "the window is {width} px wide, asked for {NARROW}"
    );

    w.screenshot(&format!("servers-long-failure{suffix}"));
    check_layout(&app, "demo");

    // The failure reads in full on hover.
    let titles = w.execute(
        "return [...document.querySelectorAll('.server-list .status-badge')]\
             .map(b => b.getAttribute('title') || '');",
        json!([]),
    );
    assert!(
        titles.as_array().expect("titles").iter().any(|t| t
            .as_str()
            .is_some_and(|t| t.contains(failed) && t.contains("mcp-server-that-is-not-installed"))),
        "the failed badge carries its whole text as its title: {titles}"
    );

    // With the failed server's details beside the list: its reason wraps in the panel.
    app.select_server(LONG_NAME);
    w.screenshot(&format!("servers-long-failure-selected{suffix}"));
    check_layout(&app, LONG_NAME);
}

/// Every card lies inside the list's column, the details panel inside the view, nothing
/// scrolls sideways, and each card's Restart and Remove take a click at their centre.
fn check_layout(app: &App, selected: &str) {
    let w = &app.window;
    w.wait_for_paint();
    let list = w.rects(".server-list")[0];
    let detail = w.rects(".servers-detail")[0];
    let rows = w.rects(".server-list li.server-row");
    assert_eq!(rows.len(), 2, "both servers are listed");
    for row in &rows {
        assert!(
            row.left >= list.left - 0.5 && row.right <= list.right + 0.5,
            "a card {row:?} runs out of the list's column {list:?} (showing {selected})"
        );
        assert!(
            row.right <= detail.left,
            "a card {row:?} lies under the details panel {detail:?} (showing {selected})"
        );
    }
    let sideways = w.execute(
        "const c = document.querySelector('.content');\
         return [c.scrollWidth, c.clientWidth, document.documentElement.scrollWidth, window.innerWidth];",
        json!([]),
    );
    let at = |i: usize| sideways[i].as_f64().expect("a width");
    assert!(
        at(0) <= at(1) + 1.0 && at(2) <= at(3) + 1.0,
        "the view scrolls sideways (content {} in {}, page {} in {})",
        at(0),
        at(1),
        at(2),
        at(3)
    );
    // Restart and Remove end each card's actions, in whatever language they are named.
    for server in ["demo", LONG_NAME] {
        for (action, nth) in [("Restart", 2), ("Remove", 1)] {
            let css = format!(
                ".server-list li[data-server='{server}'] .server-row-actions > button:nth-last-of-type({nth})"
            );
            assert_eq!(
                w.hit(&css),
                "the element",
                "a click at the centre of {action} {server} lands elsewhere (showing {selected})"
            );
        }
    }
}

/// Every control shown that still wears the browser's native look (or font) rather than the
/// design system's: a description of each.
const NATIVE_CONTROLS: &str = "\
    const font = getComputedStyle(document.body).fontFamily;\
    const own = ['checkbox', 'radio', 'range', 'file', 'hidden'];\
    return [...document.querySelectorAll('button, select, textarea, input')]\
      .filter(e => e.getClientRects().length > 0)\
      .filter(e => !(e instanceof HTMLInputElement && own.includes(e.type)))\
      .filter(e => {\
        const s = getComputedStyle(e);\
        return (s.appearance || s.webkitAppearance) !== 'none' || s.fontFamily !== font;\
      })\
      .map(e => e.outerHTML.slice(0, 120));";

#[test]
fn every_view_fits_the_window_and_wears_the_design_system() {
    every_view_fits(None, None, "");
}

/// In Chinese, whose words take other room, and dark: the screenshots, named
/// `view-*-zh-CN-dark.png`, show both.
#[test]
fn every_view_fits_in_chinese_and_in_the_dark() {
    every_view_fits(Some("zh_CN.UTF-8"), Some("dark"), "-zh-CN-dark");
}

/// Every view, with the system's locale `system` (`LC_ALL`) and the colours `theme` if
/// given, each screenshot named with `suffix`.
fn every_view_fits(system: Option<&str>, theme: Option<&str>, suffix: &str) {
    // More servers than the list shows at once (turned off: none of them starts), and the
    // demo server's details with its tools and log below them; a model, so that the chat
    // shows all it has to write with.
    let app = App::start_with(|dir| {
        let mut servers = json!({"demo": {"command": "switchboard-demo-server"}});
        for i in 1..=9 {
            servers[format!("idle-{i}")] =
                json!({"command": "switchboard-demo-server", "enabled": false});
        }
        let providers = json!({"local": {
            "protocol": "openai",
            "baseUrl": "http://127.0.0.1:9/v1",
            "models": ["a-local-model"],
            "defaultModel": "a-local-model"
        }});
        let mut config = json!({ "mcpServers": servers, "providers": providers });
        if let Some(theme) = theme {
            config["settings"] = json!({"theme": theme});
        }
        std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
        system.map(system_speaking).unwrap_or_default()
    });
    let w = &app.window;
    app.wait_running("demo");
    app.select_server("demo");
    w.find(".server-tools h3");

    let views = w.execute(
        "return [...document.querySelectorAll('nav button[data-view]')].map(b => b.dataset.view);",
        json!([]),
    );
    let views: Vec<&str> = views
        .as_array()
        .expect("the views")
        .iter()
        .map(|v| v.as_str().expect("a view's id"))
        .collect();
    assert!(views.len() >= 8, "the sidebar lists every view: {views:?}");
    for view in views {
        app.view(view);
        // The view's own body, past its header: most views load on their first visit.
        until(&format!("the {view} view shown"), || {
            w.execute(
                "return [...document.querySelectorAll('.content > :not(.content-header)')]\
                     .some(e => e.getBoundingClientRect().height > 0);",
                json!([]),
            ) == json!(true)
        });
        if view == "explorer" {
            w.wait_for_text(".catalog-entry", "Echo", SHOWN);
        }
        if view == "models" {
            // Each provider's tables, of its models' prices and of what they take, open.
            for summary in w.find_all(".content details summary") {
                w.click(&summary);
            }
            until("the tables of local's models shown", || {
                w.execute(
                    "const tables = [...document.querySelectorAll('.content details table')];\
                     return tables.length >= 2 && tables.every(t => t.getClientRects().length > 0);",
                    json!([]),
                ) == json!(true)
            });
        }
        w.screenshot(&format!("view-{view}{suffix}"));
        let sideways = w.execute(
            "const c = document.querySelector('.content'); return [c.scrollWidth, c.clientWidth];",
            json!([]),
        );
        let width = |i: usize| sideways[i].as_f64().expect("a width");
        assert!(
            width(0) <= width(1) + 1.0,
            "the {view} view scrolls sideways: {} px in {} px",
            width(0),
            width(1)
        );
        // No button's words cut off: each fits its button (a language's longer words too).
        let cut = w.execute(
            "return [...document.querySelectorAll('button')]\
                 .filter(b => b.getClientRects().length > 0 && b.scrollWidth > b.clientWidth + 1)\
                 .map(b => b.textContent.trim());",
            json!([]),
        );
        assert_eq!(cut, json!([]), "the {view} view cuts off buttons' words");
        let native = w.execute(NATIVE_CONTROLS, json!([]));
        assert_eq!(
            native,
            json!([]),
            "the {view} view shows controls in the browser's native look"
        );
        let heights = w.execute(
            "return [document.documentElement.scrollHeight, document.body.scrollHeight, \
                     window.innerHeight];",
            json!([]),
        );
        let at = |i: usize| heights[i].as_f64().expect("a height");
        assert!(
            at(0) == at(2) && at(1) == at(2),
            "the {view} view makes the window scroll: the page is {} px and its body {} px \
             high in a window of {} px",
            at(0),
            at(1),
            at(2)
        );
    }

    // What does not fit is reached by scrolling the view's pane: its end, in view.
    app.view("servers");
    w.find(".servers-detail .log-pane");
    w.execute(
        "const c = document.querySelector('.content'); c.scrollTop = c.scrollHeight;",
        json!([]),
    );
    w.screenshot(&format!("view-servers-end{suffix}"));
}
