//! A person adds servers from the MCP Registry in the real window, against the registry's
//! stand-in (its every answer checked against the registry's published OpenAPI document):
//! the registry is searched and paged, an npm server and a remote server are added through
//! the review, untrusted, their secrets in the keyring; and a `switchboard://install` link
//! the app is started with, as the system starts it for one, opens the same review, while a
//! link that says more than a server's name is refused. Each view is saved as a screenshot.

use std::path::Path;

use serde_json::{Value, json};
use switchboard_test_support::registry::RegistryStandIn;

use crate::support;
use crate::support::peer::HttpPeer;
use crate::support::window::{App, DIALOG, SHOWN};

const LIST: &str = ".registry-list ul";
const ROWS: &str = ".registry-list ul li";

/// What the app starts with: the registry of its settings is the stand-in, and `npx` is one
/// that notes how it was started (in the package cache the sandbox keeps for it, the one
/// folder it may write), then runs the demo server beside it (no package is fetched).
fn on_registry(registry: &str) -> impl FnOnce(&Path) -> Vec<(&'static str, String)> {
    let registry = registry.to_owned();
    move |dir: &Path| {
        let config = json!({"mcpServers": {}, "settings": {"registryUrl": registry}});
        std::fs::write(dir.join("config.json"), config.to_string()).expect("config");
        let bin = dir.join("bin");
        std::fs::create_dir(&bin).expect("bin");
        // Beside it, in the sandbox's view of an npx server (its program's folder).
        let demo = bin.join("switchboard-demo-server");
        std::fs::copy(
            Path::new(env!("CARGO_BIN_EXE_switchboard")).with_file_name("switchboard-demo-server"),
            &demo,
        )
        .expect("the demo server");
        let npx = bin.join("npx");
        std::fs::write(
            &npx,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$*\" \"$WEATHER_API_KEY\" > \"$npm_config_cache/npx-ran.txt\"\nexec '{}'\n",
                demo.display()
            ),
        )
        .expect("npx");
        support::window::make_executable(&npx);
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        // The app looks commands up on the login shell's PATH: this "shell" keeps the PATH
        // it is given, so that the app finds this `npx` and never the real one.
        let shell = bin.join("shell");
        std::fs::write(&shell, "#!/bin/sh\nexec /bin/sh -c \"$2\"\n").expect("shell");
        support::window::make_executable(&shell);
        vec![
            ("PATH", path),
            ("SHELL", shell.display().to_string()),
            ("XDG_CACHE_HOME", dir.join("cache").display().to_string()),
        ]
    }
}

fn file_text(app: &App) -> String {
    std::fs::read_to_string(app.dir.path().join("config.json")).expect("config")
}

#[test]
fn the_registry_is_browsed_and_an_npm_and_a_remote_server_added_from_it() {
    let remote = HttpPeer::python_streamable();
    let registry = RegistryStandIn::start_with(&["--page-size", "2", "--remote-url", &remote.url]);
    let app = App::start_with(on_registry(&registry.url));
    let w = &app.window;

    // Pages of the registry, as it sends them.
    app.view("registry");
    app.press(".registry-search", "Search");
    w.wait_for_texts(
        LIST,
        &[
            "Weather",
            "io.github.acme-labs/weather 1.4.2",
            "SQLite Explorer",
        ],
        SHOWN,
    );
    w.screenshot("registry-view");
    app.press(".registry-pages", "Next page");
    w.wait_for_texts(
        LIST,
        &["io.github.containers-co/postgres 2.0.0", "Tickets"],
        SHOWN,
    );
    w.wait_for_text(".registry-pages", "Page 2", SHOWN);
    app.press(".registry-pages", "Previous page");
    w.wait_for_texts(LIST, &["Weather", "SQLite Explorer"], SHOWN);

    // An npm server, found by name; its secret typed into the review.
    let search = w.find("input[aria-label='Search the registry']");
    w.type_into(&search, "weather", true);
    app.press(".registry-search", "Search");
    w.wait_for_all(ROWS, "only the weather server", SHOWN, |rows| {
        rows.len() == 1 && rows[0].contains("io.github.acme-labs/weather")
    });
    w.click(&w.find(".registry-list button[aria-label='io.github.acme-labs/weather']"));
    let entry = w.wait_for_texts(
        ".registry-entry",
        &[
            "npm package @acme-labs/weather-mcp",
            "1.4.2",
            "WEATHER_API_KEY",
            "secret",
            "--units",
        ],
        SHOWN,
    );
    assert!(
        entry.contains("Forecasts and current conditions"),
        "{entry}"
    );
    w.screenshot("registry-entry");
    app.press(".registry-way", "Add…");
    w.wait_for_text(DIALOG, "Add Weather from the registry", SHOWN);
    let key = format!("wk-{}-{}", std::process::id(), line!());
    app.fill(DIALOG, "environment variable WEATHER_API_KEY", &key);
    let review = w.wait_for_texts(
        DIALOG,
        &[
            "npx -y @acme-labs/weather-mcp@1.4.2 --units metric",
            "kept in the OS keyring",
            "eu-west",
        ],
        SHOWN,
    );
    assert!(!review.contains(&key), "the secret is not shown: {review}");
    w.screenshot("registry-review-npm");
    app.press(DIALOG, "Add server");
    w.wait_for_text(".registry .notice", "weather was added, untrusted", SHOWN);

    assert_eq!(
        app.config()["mcpServers"]["weather"],
        json!({
            "command": "npx",
            "args": ["-y", "@acme-labs/weather-mcp@1.4.2", "--units", "metric"],
            "env": {
                "WEATHER_API_KEY": {"secret": "weather/env/WEATHER_API_KEY"},
                "WEATHER_REGION": "eu-west",
            },
            "sandbox": {"network": false},
        }),
        "saved untrusted (no `trusted` mark) and sandboxed, its secret named, not written"
    );
    assert!(!file_text(&app).contains(&key));
    assert_eq!(
        app.keyring_secret("weather/env/WEATHER_API_KEY").as_deref(),
        Some(key.as_str())
    );
    app.wait_running("weather");
    // Fetched, then run in its sandbox from the cache kept for the package.
    let cache = app
        .dir
        .path()
        .join("cache/switchboard/sandbox/packages/npx/@acme-labs_weather-mcp@1.4.2");
    let ran = std::fs::read_to_string(cache.join("npx-ran.txt")).expect("npx ran");
    assert_eq!(
        ran,
        format!("-y @acme-labs/weather-mcp@1.4.2 --units metric\n{key}\n")
    );
    w.screenshot("registry-added-running");

    // A remote server, its header's token typed in.
    app.view("registry");
    let search = w.find("input[aria-label='Search the registry']");
    w.type_into(&search, "tickets", true);
    app.press(".registry-search", "Search");
    w.wait_for_all(ROWS, "only the tickets server", SHOWN, |rows| {
        rows.len() == 1 && rows[0].contains("Tickets")
    });
    w.click(&w.find(".registry-list button[aria-label='com.example/tickets']"));
    w.wait_for_texts(
        ".registry-entry",
        &["Remote", &remote.url, "Authorization", "X-Desk"],
        SHOWN,
    );
    app.press(".registry-way", "Add…");
    w.wait_for_text(DIALOG, "Add Tickets from the registry", SHOWN);
    app.fill(DIALOG, "token of header Authorization", "tk-secret-9");
    w.wait_for_texts(
        DIALOG,
        &[
            &remote.url,
            "Streamable HTTP",
            "Authorization",
            "X-Desk",
            "support",
        ],
        SHOWN,
    );
    w.screenshot("registry-review-remote");
    app.press(DIALOG, "Add server");
    w.wait_for_text(".registry .notice", "tickets was added, untrusted", SHOWN);
    let saved: Value = app.config()["mcpServers"]["tickets"].clone();
    assert_eq!(
        saved,
        json!({
            "url": remote.url,
            "type": "streamable-http",
            "headers": {
                "Authorization": {"secret": "tickets/header/Authorization"},
                "X-Desk": "support",
            },
        })
    );
    assert!(!file_text(&app).contains("tk-secret-9"));
    assert_eq!(
        app.keyring_secret("tickets/header/Authorization")
            .as_deref(),
        Some("Bearer tk-secret-9")
    );
    app.wait_running("tickets");
    assert!(registry.answered("search=tickets") >= 1);
}

#[test]
fn an_install_link_opens_the_review_and_a_link_that_says_more_is_refused() {
    let registry = RegistryStandIn::start();
    let link = "switchboard://install?name=io.github.acme-labs%2Fweather&version=1.3.0".to_owned();
    let app = App::start_opening(&[link], on_registry(&registry.url));
    let w = &app.window;
    w.wait_for_texts(
        DIALOG,
        &[
            "Add Weather from the registry",
            "version 1.3.0",
            "environment variable WEATHER_API_KEY needs a value",
        ],
        SHOWN,
    );
    app.fill(
        DIALOG,
        "environment variable WEATHER_API_KEY",
        "typed-not-added",
    );
    w.wait_for_text(
        DIALOG,
        "npx -y @acme-labs/weather-mcp@1.3.0 --units metric",
        SHOWN,
    );
    w.screenshot("registry-link-review");
    app.press(DIALOG, "Cancel");
    app.no_dialog();
    assert_eq!(
        app.config()["mcpServers"],
        json!({}),
        "a link adds nothing by itself"
    );
    drop(app);

    let deceptive = "switchboard://install?name=io.github.acme-labs%2Fweather&registry=http%3A%2F%2F127.0.0.1%3A9".to_owned();
    let app = App::start_opening(&[deceptive], on_registry(&registry.url));
    let w = &app.window;
    w.wait_for_text(
        ".link-refused",
        "could not be opened: the link says \"registry\", which no install link says: it is not followed",
        SHOWN,
    );
    app.no_dialog();
    w.screenshot("registry-link-refused");
    assert_eq!(
        registry.answered("/versions/"),
        1,
        "only the first link reached the registry"
    );
}
