//! Every view and every dialog of the demo server audited for accessibility in the real
//! window, in English and in Chinese, light and dark: axe-core against the WCAG 2.2 A and AA
//! rules (`support::audit`), colour contrast among them. Any violation fails the test. Each
//! dialog is saved as `audit-<dialog>-<en|zh-CN|dark>.png` under `test-artifacts/`.

use serde_json::json;

use crate::support::audit::violations;
use crate::support::keyboard::ESCAPE;
use crate::support::window::{App, DETAIL, DIALOG, SHOWN, system_speaking};

const VIEWS: [&str; 11] = [
    "servers",
    "registry",
    "explorer",
    "approvals",
    "activity",
    "tasks",
    "trust",
    "models",
    "chat",
    "agents",
    "settings",
];

/// A tool of the demo server that asks the person: its name, the field it needs filled
/// (by the server's own name for it) and the dialog it opens.
struct Asking {
    tool: &'static str,
    field: Option<(&'static str, &'static str)>,
    dialog: &'static str,
}

const ASKING: [Asking; 5] = [
    Asking {
        tool: "Delete a note",
        field: Some(("title", "groceries")),
        dialog: "tool call",
    },
    Asking {
        tool: "Ask the host's model",
        field: Some(("question", "What is MCP?")),
        dialog: "sampling",
    },
    Asking {
        tool: "List shared folders",
        field: None,
        dialog: "folders",
    },
    Asking {
        tool: "Ask you to fill in a form",
        field: None,
        dialog: "form",
    },
    Asking {
        tool: "Ask you to open a web page",
        field: None,
        dialog: "link",
    },
];

/// What axe-core finds in the window now, each violation told with `place`.
fn audit(app: &App, place: &str) -> Vec<String> {
    app.window.wait_for_paint();
    violations(&app.window)
        .into_iter()
        .map(|violation| format!("{place}: {violation}"))
        .collect()
}

fn audit_every_view(app: &App, title_of_servers: &str) -> Vec<String> {
    let mut found = Vec::new();
    for view in VIEWS {
        app.view(view);
        app.window.wait_for_text(
            &format!("nav button[data-view='{view}'][aria-current='page']"),
            "",
            SHOWN,
        );
        // What the view lists, once it is there, is audited too.
        match view {
            "servers" => {
                app.window
                    .wait_for_text("#view-title", title_of_servers, SHOWN);
                app.window.wait_for_text(".server-list li", "demo", SHOWN);
            }
            "explorer" => {
                app.window.wait_for_text(".catalog-entry", "demo", SHOWN);
            }
            _ => {}
        }
        found.extend(audit(app, view));
    }
    // The form that adds a server, open.
    app.view("servers");
    app.window
        .click(&app.window.find(".server-list-toolbar button.primary"));
    app.window.find(".server-form");
    found.extend(audit(app, "the server form"));
    // The pane that imports servers from other apps.
    app.window
        .click(&app.window.find(".server-list-toolbar button:not(.primary)"));
    app.window.find(".servers-detail section.import");
    found.extend(audit(app, "the import pane"));
    found
}

/// Each dialog the demo server opens, audited, then closed with Escape; in whatever
/// language the window speaks (found by the server's own words and the page's structure).
fn audit_every_dialog(app: &App, look: &str) -> Vec<String> {
    let w = &app.window;
    let mut found = Vec::new();
    for Asking {
        tool,
        field,
        dialog,
    } in ASKING
    {
        app.view("explorer");
        let search = w.find(".catalog input[type='search']");
        w.type_into(&search, "", true);
        w.type_into(&search, tool, false);
        let entry = w.find_by_script(
            "return [...document.querySelectorAll(arguments[0])]\
                 .find(e => e.querySelector('.catalog-entry-name').textContent === arguments[1]) || null;",
            ".catalog-entry",
            tool,
        );
        w.click(&entry);
        w.wait_for_text(&format!("{DETAIL} h2"), tool, SHOWN);
        if let Some((label, text)) = field {
            app.fill(DETAIL, label, text);
        }
        w.click(&w.find(&format!("{DETAIL} .detail-actions button.primary")));
        w.find(DIALOG);
        found.extend(audit(app, dialog));
        w.screenshot(&format!("audit-{}-{look}", dialog.replace(' ', "-")));
        w.press_keys(&[ESCAPE]);
        app.no_dialog();
    }
    found
}

/// How the window looks and speaks for an audit.
struct Look {
    /// The system's locale (`LC_ALL`), if not the machine's.
    system: Option<&'static str>,
    /// The colours chosen in the settings, if any.
    theme: Option<&'static str>,
    /// What the window names the Servers view and a running server.
    says: [&'static str; 2],
    /// How its screenshots are named (`audit-<dialog>-<name>.png`).
    name: &'static str,
}

/// Every view, then every dialog, audited in the window as it starts, looking as `look`.
fn audit_all(look: Look) -> Vec<String> {
    let [title_of_servers, running] = look.says;
    let app = App::start_with(|dir| {
        let mut config = json!({"mcpServers": {"demo": {"command": "switchboard-demo-server"}}});
        if let Some(theme) = look.theme {
            config["settings"] = json!({"theme": theme});
        }
        std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
        look.system.map(system_speaking).unwrap_or_default()
    });
    app.view("servers");
    app.window
        .wait_for_texts(".server-list li", &["demo", running], SHOWN);
    if look.theme == Some("dark") {
        let background = app.window.execute(
            "return getComputedStyle(document.documentElement).backgroundColor;",
            json!([]),
        );
        assert_eq!(background, "rgb(15, 20, 27)", "the window is dark");
    }
    let mut found = audit_every_view(&app, title_of_servers);
    found.extend(audit_every_dialog(&app, look.name));
    found
}

#[test]
fn every_view_and_dialog_meets_wcag_2_2_aa_in_english() {
    let found = audit_all(Look {
        system: None,
        theme: None,
        says: ["Servers", "Running"],
        name: "en",
    });
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_view_and_dialog_meets_wcag_2_2_aa_in_chinese() {
    let found = audit_all(Look {
        system: Some("zh_CN.UTF-8"),
        theme: None,
        says: ["服务器", "运行中"],
        name: "zh-CN",
    });
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_view_and_dialog_meets_wcag_2_2_aa_in_the_dark() {
    let found = audit_all(Look {
        system: None,
        theme: Some("dark"),
        says: ["Servers", "Running"],
        name: "dark",
    });
    assert!(found.is_empty(), "{}", found.join("\n"));
}
