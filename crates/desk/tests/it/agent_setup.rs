//! Adding Switchboard to other apps' configuration files, with real files in a home folder
//! of the test's own: every scenario runs for Claude Code, Claude Desktop, Cursor and VS Code.
//! (That an entry written reaches the servers through Switchboard is the gateway's test.)

#![allow(clippy::unwrap_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use serde_json::json;
use switchboard_core::agent_setup::{
    self as setup, APPS, AgentApp, Bridge, Home, KEY, SetupError, SetupPlan,
};
use switchboard_desk::AgentError;

use crate::common::*;

fn bridge() -> Bridge {
    Bridge {
        program: "/opt/switchboard/switchboard-cli".into(),
        socket: None,
    }
}

/// A home folder of the test's own.
struct World {
    _dir: tempfile::TempDir,
    home: Home,
    root: PathBuf,
}

fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("home");
    std::fs::create_dir(&root).unwrap();
    World {
        home: Home::at(&root),
        root,
        _dir: dir,
    }
}

impl World {
    fn plan(&self, app: AgentApp, agent: &str) -> Result<SetupPlan, SetupError> {
        setup::plan(&self.home, app, &bridge(), agent)
    }

    fn path(&self, app: AgentApp) -> PathBuf {
        app.path(&self.home)
    }

    fn put(&self, app: AgentApp, text: &str) -> PathBuf {
        let path = self.path(app);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }
}

/// The file each app might hold: another server, other settings of the app's own and, for
/// VS Code, comments and trailing commas.
fn lived_in(app: AgentApp) -> String {
    match app {
        AgentApp::VsCode => "{\n\t// Servers for every workspace\n\t\"servers\": {\n\t\t\"memory\": {\n\t\t\t\"type\": \"stdio\",\n\t\t\t\"command\": \"npx\", // the package runner\n\t\t\t\"args\": [\"-y\", \"@modelcontextprotocol/server-memory\"],\n\t\t},\n\t},\n\t/* asked for when a server starts */\n\t\"inputs\": [],\n}\n".to_owned(),
        _ => format!(
            "{{\n  \"numStartups\": 12,\n  \"{}\": {{\n    \"memory\": {{\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@modelcontextprotocol/server-memory\"]\n    }}\n  }},\n  \"theme\": \"dark\"\n}}\n",
            app.servers_key()
        ),
    }
}

/// Whether every line of `before` is in `after`, in the same order, as it was (a line that
/// gained the comma before a new entry counts as kept).
fn kept_in_order(before: &str, after: &str) -> bool {
    let mut after = after.lines();
    before.lines().all(|line| {
        after
            .by_ref()
            .any(|new| new == line || new.strip_suffix(',') == Some(line))
    })
}

#[test]
fn a_missing_file_is_created_holding_the_entry() {
    for app in APPS {
        let w = world();
        let plan = w.plan(app, "Cursor").unwrap();
        assert!(!plan.exists, "{app:?}");
        assert_eq!(plan.current, "");
        assert_eq!(plan.path, w.path(app).display().to_string());
        assert!(
            plan.diff.starts_with("--- /dev/null\n+++ "),
            "{app:?}: {}",
            plan.diff
        );
        assert!(
            plan.diff.contains("+    \"switchboard\": {"),
            "{app:?}: {}",
            plan.diff
        );
        setup::apply(&plan).unwrap();
        let file = read_as_app(&w.path(app));
        let entry = &file[app.servers_key()][KEY];
        assert_eq!(entry, &app.entry(&bridge(), "Cursor"), "{app:?}: {file}");
        assert_eq!(entry["args"], json!(["bridge", "--agent", "Cursor"]));
        assert_eq!(std::fs::read_to_string(w.path(app)).unwrap(), plan.proposed);
    }
}

#[test]
fn an_existing_file_keeps_its_servers_settings_comments_and_permissions() {
    for app in APPS {
        let w = world();
        let before = lived_in(app);
        let path = w.put(app, &before);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let plan = w.plan(app, "Claude Code").unwrap();
        assert!(plan.exists);
        assert_eq!(plan.current, before);
        let added = plan.diff.lines().filter(|l| l.starts_with('+')).count();
        let removed = plan.diff.lines().filter(|l| l.starts_with('-')).count();
        // Besides the headers: the entry's lines, and at most one line given a comma.
        assert!(removed <= 2, "{app:?}: {}", plan.diff);
        assert!(added >= 5, "{app:?}: {}", plan.diff);
        setup::apply(&plan).unwrap();
        let after = std::fs::read_to_string(&path).unwrap();
        assert!(
            kept_in_order(&before, &after),
            "{app:?}:\n{before}\n---\n{after}"
        );
        let file = read_as_app(&path);
        let servers = &file[app.servers_key()];
        assert_eq!(servers["memory"]["command"], "npx", "{app:?}: {after}");
        assert_eq!(servers[KEY], app.entry(&bridge(), "Claude Code"), "{app:?}");
        if app == AgentApp::VsCode {
            assert!(after.contains("// Servers for every workspace"), "{after}");
            assert!(
                after.contains("\"command\": \"npx\", // the package runner"),
                "{after}"
            );
            assert!(
                after.contains("/* asked for when a server starts */"),
                "{after}"
            );
            assert!(
                after.contains("\t\t\"switchboard\": {"),
                "indented as the file is: {after}"
            );
        } else {
            assert_eq!(file["numStartups"], 12);
            assert_eq!(file["theme"], "dark");
        }
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "{app:?}");
    }
}

#[test]
fn a_malformed_file_is_refused_with_where_and_left_untouched() {
    let broken = [
        (
            "{\"mcpServers\": {\"memory\": {\"command\": \"npx\"}",
            "line 1",
        ),
        ("[\"not\", \"an object\"]", "top level is not a JSON object"),
    ];
    for app in APPS {
        let w = world();
        for (text, says) in broken {
            let text = text.replace("mcpServers", app.servers_key());
            let path = w.put(app, &text);
            let refused = w.plan(app, "Cursor").unwrap_err();
            assert!(
                matches!(refused, SetupError::Unreadable { .. }),
                "{app:?}: {refused:?}"
            );
            let message = refused.to_string();
            assert!(message.contains(says), "{app:?}: {message}");
            assert!(message.contains(&path.display().to_string()), "{message}");
            assert!(message.contains("left as it is"), "{message}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
        let servers_listed_wrong = format!("{{\"{}\": [\"memory\"]}}", app.servers_key());
        w.put(app, &servers_listed_wrong);
        let refused = w.plan(app, "Cursor").unwrap_err().to_string();
        assert!(
            refused.contains("is not a JSON object"),
            "{app:?}: {refused}"
        );
    }
    // A comment is VS Code's to allow: the other apps' JSON readers refuse it.
    for app in [
        AgentApp::ClaudeCode,
        AgentApp::ClaudeDesktop,
        AgentApp::Cursor,
    ] {
        let w = world();
        w.put(app, "{\n  // mine\n}\n");
        let refused = w.plan(app, "Cursor").unwrap_err().to_string();
        assert!(refused.contains("line 2"), "{app:?}: {refused}");
    }
}

#[test]
fn a_file_changed_after_the_plan_is_refused_and_keeps_the_change() {
    for app in APPS {
        let w = world();
        let path = w.put(app, &lived_in(app));
        let plan = w.plan(app, "Cursor").unwrap();
        let edited = lived_in(app).replace("memory", "remember");
        std::fs::write(&path, &edited).unwrap();
        let refused = setup::apply(&plan).unwrap_err();
        assert!(
            matches!(refused, SetupError::Changed { .. }),
            "{app:?}: {refused:?}"
        );
        assert!(refused.to_string().contains("look at the change again"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), edited);
        // A file that appeared since a plan to create it is not replaced either.
        let w = world();
        let plan = w.plan(app, "Cursor").unwrap();
        let path = w.put(app, "{}");
        assert!(matches!(
            setup::apply(&plan),
            Err(SetupError::Changed { .. })
        ));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{}");
    }
}

#[test]
fn setting_up_twice_says_it_is_set_up_already() {
    for app in APPS {
        let w = world();
        w.put(app, &lived_in(app));
        let plan = w.plan(app, "Cursor").unwrap();
        setup::apply(&plan).unwrap();
        let written = std::fs::read_to_string(w.path(app)).unwrap();
        let again = setup::apply(&plan).unwrap_err();
        assert!(
            matches!(again, SetupError::AlreadySetUp { .. }),
            "{app:?}: {again:?}"
        );
        let planned = w.plan(app, "Cursor").unwrap_err().to_string();
        assert!(
            planned.contains("already reaches Switchboard as \"Cursor\""),
            "{planned}"
        );
        assert!(planned.contains(app.name()), "{planned}");
        assert_eq!(std::fs::read_to_string(w.path(app)).unwrap(), written);
        // Another agent's entry replaces this one, under the same key.
        let other = w.plan(app, "Claude Code").unwrap();
        let changed = |sign: char, text: &str| {
            other.diff.lines().any(|line| {
                line.starts_with(sign)
                    && !line.starts_with(&sign.to_string().repeat(3))
                    && line.contains(text)
            })
        };
        assert!(
            changed('-', "\"Cursor\"") && changed('+', "\"Claude Code\""),
            "{app:?}: {}",
            other.diff
        );
        setup::apply(&other).unwrap();
        let file = read_as_app(&w.path(app));
        let servers = file[app.servers_key()].as_object().unwrap();
        assert_eq!(servers.len(), 2, "{app:?}: {file}");
        assert_eq!(
            servers[KEY]["args"],
            json!(["bridge", "--agent", "Claude Code"])
        );
    }
}

#[test]
fn a_file_kept_elsewhere_behind_a_link_is_changed_where_it_is() {
    let w = world();
    let kept = w.root.join("dotfiles/cursor.json");
    std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
    std::fs::write(&kept, lived_in(AgentApp::Cursor)).unwrap();
    let link = w.path(AgentApp::Cursor);
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&kept, &link).unwrap();
    setup::apply(&w.plan(AgentApp::Cursor, "Cursor").unwrap()).unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        read_as_app(&kept)["mcpServers"][KEY]["command"],
        bridge().program
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_window_cannot_choose_the_file_or_what_is_written() {
    let world = demo_desk(json!({})).await;
    let desk = &world.desk;
    let w = self::world();
    desk.agents().set_setup_places(w.home.clone(), bridge());
    assert!(matches!(
        desk.agents().setup_plan(AgentApp::Cursor, "Nobody").await,
        Err(AgentError::NoAgent(_))
    ));
    desk.agents().save("Cursor", None).await.unwrap();
    let plan = desk
        .agents()
        .setup_plan(AgentApp::Cursor, "Cursor")
        .await
        .unwrap();
    let elsewhere = SetupPlan {
        path: w.root.join("elsewhere.json").display().to_string(),
        ..plan.clone()
    };
    let other_text = SetupPlan {
        proposed: "{\"mcpServers\": {}}\n".into(),
        ..plan.clone()
    };
    for forged in [elsewhere, other_text] {
        let refused = desk.agents().setup_apply(&forged).await.unwrap_err();
        assert!(
            matches!(refused, AgentError::Setup(SetupError::Changed { .. })),
            "{refused:?}"
        );
    }
    assert!(!w.root.join("elsewhere.json").exists());
    assert!(!w.path(AgentApp::Cursor).exists());
    desk.agents().setup_apply(&plan).await.unwrap();
    assert_eq!(
        std::fs::read_to_string(w.path(AgentApp::Cursor)).unwrap(),
        plan.proposed
    );
}

/// An app's file that is slow to read (here a pipe, which reads only once something writes
/// it; a home folder on the network is as slow) holds up no other work of the desk's
/// runtime: the file is read on a blocking thread.
#[test]
fn a_slow_file_holds_up_no_other_work_of_the_desk() {
    let w = world();
    let path = w.path(AgentApp::Cursor);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    assert!(made.unwrap().success());
    let (written, was_written) = std::sync::mpsc::channel();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let planned = std::thread::spawn({
        let (home, path) = (w.home.clone(), path.clone());
        move || {
            runtime.block_on(async {
                let world = demo_desk(json!({})).await;
                let agents = world.desk.agents();
                agents.save("Cursor", None).await.unwrap();
                agents.set_setup_places(home, bridge());
                // Another task of the same (single) thread writes the file: it runs only
                // if planning leaves the thread free while it waits for the file.
                let (plan, ()) =
                    tokio::join!(agents.setup_plan(AgentApp::Cursor, "Cursor"), async {
                        std::fs::write(&path, "{}").unwrap();
                        written.send(()).unwrap();
                    });
                world.desk.shutdown().await;
                plan.map(|plan| plan.current)
            })
        }
    });
    let held = was_written.recv_timeout(WAIT).is_err();
    if held {
        // Planning held the thread: let it read something, and the task it held up write,
        // for the test to end.
        std::fs::write(&path, "held up").unwrap();
        std::fs::read(&path).unwrap();
    }
    let current = planned.join().unwrap();
    assert!(!held, "planning held up the thread until it read the file");
    assert_eq!(current.unwrap(), "{}");
}
