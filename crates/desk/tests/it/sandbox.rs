//! A local server in the sandbox: a server that pries (the hostile peer's `prying` mode)
//! reaches the person's files, the host's network and the host's environment without it,
//! and with it (built by bubblewrap, or by Landlock where bubblewrap cannot run) reaches
//! only the folder shared with it, which it can read and write.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::{Value, json};
use switchboard_core::approvals::Remember;
use switchboard_core::config::{SandboxEngine, SandboxSetting};
use switchboard_core::sandbox::SandboxNote;
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::LogSource;
use switchboard_desk::Update;
use switchboard_test_support::prying::Targets;

use crate::common::{DemoDesk, desk_on, text_of};

/// Calls `tool` of the world's server as the person, who confirms it (a tool that does not
/// say it only reads), as ever: the sandbox approves nothing by itself.
async fn confirmed(world: &mut DemoDesk, tool: &str, arguments: Value) -> Value {
    let call = world.call(tool, arguments.clone(), tool);
    let asked = world.asked().await;
    let arguments = arguments.as_object().cloned().unwrap();
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, &world.server, true, arguments, Remember::Once)
        .unwrap();
    call.await
        .unwrap()
        .unwrap_or_else(|e| panic!("{tool}: {e}"))
}

#[tokio::test]
async fn a_prying_server_reaches_only_its_shared_folder_in_either_sandbox_and_everything_without() {
    for engine in [None, Some("bubblewrap"), Some("landlock")] {
        let sandbox = engine.is_some();
        let targets = Targets::new();
        let servers = json!({"prying": targets.server_entry(engine)});
        let mut world = desk_on(servers, json!({}), Secrets::new("switchboard-test-sandbox")).await;
        world.server = "prying".to_owned();
        // Shared while it runs: the sandbox starts again to bind it.
        world
            .desk
            .trust()
            .set_roots("prying", std::slice::from_ref(&targets.root))
            .await
            .unwrap();
        if sandbox {
            world.running(&["prying"]).await;
        }
        let result = confirmed(&mut world, "poke", json!({})).await;
        targets.check(sandbox, &text_of(&result));
        if sandbox {
            // Its refused connection is noted in its log as maybe the sandbox's doing (after
            // its refused reads, where the engine says those were refused).
            let note = world
                .next(|u| match u {
                    Update::Log { entry }
                        if entry.source == LogSource::Sandbox
                            && entry.note == Some(SandboxNote::NoNetwork) =>
                    {
                        Some(entry.text)
                    }
                    _ => None,
                })
                .await;
            assert!(note.contains("allow it the network"), "{engine:?}: {note}");
        }
        world.desk.shutdown().await;
    }
}

/// A folder shared read-only: in either sandbox the server reads it and changes nothing
/// there, the panel says so and the choice is kept in the file; made writable again, the
/// server writes there.
#[tokio::test]
async fn a_folder_shared_read_only_is_read_and_never_written_in_either_sandbox() {
    for engine in ["bubblewrap", "landlock"] {
        let targets = Targets::new();
        let servers = json!({"prying": targets.server_entry(Some(engine))});
        let mut world = desk_on(servers, json!({}), Secrets::new("switchboard-test-sandbox")).await;
        world.server = "prying".to_owned();
        let trust = world.desk.trust();
        trust
            .set_roots("prying", std::slice::from_ref(&targets.root))
            .await
            .unwrap();
        world.running(&["prying"]).await;
        trust
            .set_read_only("prying", &targets.root, true)
            .await
            .unwrap();
        world.running(&["prying"]).await;
        let view = world.desk.servers().sandbox_view("prying").await.unwrap();
        assert_eq!(view.read_only, [targets.root.display().to_string()]);
        assert!(view.roots.is_empty(), "{:?}", view.roots);
        let kept = std::fs::read_to_string(&world.config).unwrap();
        assert!(kept.contains("readOnly"), "{kept}");

        let attempts = |result: &Value| -> serde_json::Map<String, Value> {
            serde_json::from_str(&text_of(result)).unwrap()
        };
        let inside = targets.root.join("notes.txt");
        let read = format!("read {}", inside.display());
        let write = format!("write {}", targets.written().display());
        let pried = attempts(&confirmed(&mut world, "poke", json!({})).await);
        assert_eq!(pried[&read], "ok", "{engine}: {pried:?}");
        assert!(
            !pried[&write].as_str().unwrap().starts_with("ok"),
            "{engine}: {pried:?}"
        );
        assert!(
            !targets.written().exists(),
            "{engine}: written in a read-only folder"
        );

        trust
            .set_read_only("prying", &targets.root, false)
            .await
            .unwrap();
        world.running(&["prying"]).await;
        let pried = attempts(&confirmed(&mut world, "poke", json!({})).await);
        assert_eq!(pried[&write], "ok", "{engine}: {pried:?}");
        world.desk.shutdown().await;
    }
}

/// A third party's server that is a Node package (server-everything, run by `node` from its
/// folder in a `node_modules`) runs in either sandbox: its package and the dependencies
/// beside it are in its view.
#[tokio::test]
async fn a_node_package_runs_sandboxed_with_its_dependencies() {
    let everything = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    let everything = everything
        .canonicalize()
        .expect("server-everything: run scripts/setup");
    for engine in ["bubblewrap", "landlock"] {
        let servers = json!({"everything": {
            "command": "node",
            "args": [everything.display().to_string(), "stdio"],
            "sandbox": {"network": false, "engine": engine},
        }});
        let mut world = desk_on(servers, json!({}), Secrets::new("switchboard-test-sandbox")).await;
        world.server = "everything".to_owned();
        // A tool that says it only reads: the person's own call runs unasked.
        let result = world.call("echo", json!({"message": "from the sandbox"}), "echo");
        let result = result.await.unwrap().expect("the echo");
        assert!(
            text_of(&result).contains("from the sandbox"),
            "{engine}: {result}"
        );
        world.desk.shutdown().await;
    }
}

/// A server that is a package a runner fetches (server-everything by `npx`, the reference
/// time server by `uvx`) runs in the sandbox with no network: its package is fetched first
/// (the one step with the network, seeing nothing of the person's) into a cache kept for
/// it, which the panel names, and the server starts from there.
#[tokio::test]
async fn a_package_server_is_fetched_then_runs_sandboxed_without_the_network() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let peers: Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/peers/node/package.json")).unwrap(),
    )
    .unwrap();
    let everything = "@modelcontextprotocol/server-everything";
    let version = peers["dependencies"][everything].as_str().unwrap();
    let uvx = root.join(".tools/venv/bin/uvx");
    assert!(
        uvx.exists(),
        "uv is missing from the Python test peers: run scripts/setup"
    );
    // Each runner: its entry, a call of its server's, what the answer says, what the
    // fetch left in the cache.
    let runners = [
        (
            json!({"command": "npx", "args": ["-y", format!("{everything}@{version}"), "stdio"]}),
            ("echo", json!({"message": "fetched, then offline"})),
            "fetched, then offline",
            "_npx",
        ),
        (
            json!({"command": uvx, "args": ["mcp-server-time@2026.10.19", "--local-timezone", "UTC"]}),
            ("get_current_time", json!({"timezone": "UTC"})),
            "\"timezone\": \"UTC\"",
            "wheels-v8/pypi/mcp-server-time",
        ),
    ];
    for (mut entry, (tool, arguments), answered, fetched) in runners {
        entry["sandbox"] = json!({"network": false});
        let runner = entry["command"].as_str().unwrap().to_owned();
        let servers = json!({"package": entry});
        let mut world = desk_on(servers, json!({}), Secrets::new("switchboard-test-sandbox")).await;
        world.server = "package".to_owned();
        // Tools that say they only read: the person's own call runs unasked.
        let result = world.call(tool, arguments, tool).await.unwrap();
        let result = result.unwrap_or_else(|e| panic!("{runner}: {e}"));
        assert!(text_of(&result).contains(answered), "{runner}: {result}");
        let view = world.desk.servers().sandbox_view("package").await.unwrap();
        assert!(!view.network);
        let [cache] = view.caches.as_slice() else {
            panic!("{runner}: one package cache: {:?}", view.caches)
        };
        assert!(
            std::path::Path::new(cache).join(fetched).exists(),
            "{runner}: the package was fetched into {cache}"
        );
        world.desk.shutdown().await;
    }
}

/// The reference filesystem server, sandboxed with one shared folder: it lists and reads
/// the folder, and what lies beside it never reaches the person, neither by `..` nor by a
/// link planted inside the folder.
#[tokio::test]
async fn the_filesystem_server_reads_its_shared_folder_and_nothing_beside_it() {
    let targets = Targets::new();
    let filesystem = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../tests/peers/node/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
    );
    let filesystem = filesystem
        .canonicalize()
        .expect("server-filesystem: run scripts/setup");
    let root = targets.root.display().to_string();
    let servers = json!({"files": {
        "command": "node",
        "args": [filesystem.display().to_string(), root],
        "sandbox": {"network": false},
    }});
    let mut world = desk_on(servers, json!({}), Secrets::new("switchboard-test-sandbox")).await;
    world.server = "files".to_owned();
    // Shared while it runs: it starts again with the folder in its view.
    world
        .desk
        .trust()
        .set_roots("files", std::slice::from_ref(&targets.root))
        .await
        .unwrap();
    world.running(&["files"]).await;
    let listed = world.call("list_directory", json!({"path": root}), "list");
    let listed = text_of(&listed.await.unwrap().expect("listed"));
    assert!(listed.contains("notes.txt"), "{listed}");
    let link = targets.root.join("link.txt");
    std::os::unix::fs::symlink(&targets.outside, &link).unwrap();
    let beside = format!("{root}/../beside/notes.txt");
    for path in [beside, link.display().to_string()] {
        let read = world.call("read_text_file", json!({"path": path}), "read");
        let read = read.await.unwrap();
        let shown = read.map_or_else(|e| e.to_string(), |r| r.to_string());
        assert!(!shown.contains("not shared"), "{path}: {shown}");
    }
    let read = world.call(
        "read_text_file",
        json!({"path": targets.root.join("notes.txt")}),
        "read",
    );
    let read = text_of(&read.await.unwrap().expect("read"));
    assert_eq!(read, "shared");
    world.desk.shutdown().await;
}

/// What a server would see in the sandbox is said before it is put there: its program's
/// folder and the folders shared with it, by name.
#[tokio::test]
async fn what_a_server_would_see_in_the_sandbox_is_said_by_name() {
    let world = crate::common::demo_desk(json!({})).await;
    let targets = Targets::new();
    world
        .desk
        .trust()
        .set_roots("demo", std::slice::from_ref(&targets.root))
        .await
        .unwrap();
    let view = world.desk.servers().sandbox_view("demo").await.unwrap();
    let demo = crate::common::demo_server();
    assert_eq!(
        view.programs,
        vec![demo.parent().unwrap().display().to_string()]
    );
    assert_eq!(view.roots, vec![targets.root.display().to_string()]);
    assert!(!view.network);
    // What builds it here, said too: bubblewrap runs on this machine; Landlock when chosen.
    assert_eq!(
        view.engine,
        Some(SandboxEngine::Bubblewrap),
        "{:?}",
        view.cannot
    );
    let landlock = SandboxSetting {
        network: false,
        engine: SandboxEngine::Landlock,
    };
    world
        .desk
        .servers()
        .set_sandbox("demo", Some(landlock))
        .await
        .unwrap();
    let view = world.desk.servers().sandbox_view("demo").await.unwrap();
    assert_eq!(
        view.engine,
        Some(SandboxEngine::Landlock),
        "{:?}",
        view.cannot
    );
    assert_eq!(view.cannot, None);
    world.desk.shutdown().await;
}
