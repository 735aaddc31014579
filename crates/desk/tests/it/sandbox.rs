//! A local server in the sandbox: a server that pries (the hostile peer's `prying` mode)
//! reaches the person's files, the host's network and the host's environment without it,
//! and with it reaches only the folder shared with it, which it can read and write.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::net::TcpListener;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use switchboard_core::approvals::Remember;
use switchboard_core::secrets::Secrets;

use crate::common::{desk_on, text_of, workspace_binary};

/// What the prying server is sent after, in a folder of the person's home.
struct Targets {
    _home: tempfile::TempDir,
    /// A file of the person's, not shared.
    secret: PathBuf,
    /// The folder shared with the server, and a file in it.
    root: PathBuf,
    inside: PathBuf,
    /// A file in a folder beside it, not shared.
    outside: PathBuf,
    listener: TcpListener,
    /// A variable of the host's environment the configuration does not name.
    variable: String,
}

impl Targets {
    fn new() -> Self {
        let home = std::env::var_os("HOME").map(PathBuf::from).unwrap();
        let home = tempfile::tempdir_in(home).unwrap();
        let secret = home.path().join("secret.txt");
        std::fs::write(&secret, "the person's").unwrap();
        let root = home.path().join("shared");
        std::fs::create_dir(&root).unwrap();
        let inside = root.join("notes.txt");
        std::fs::write(&inside, "shared").unwrap();
        let outside = home.path().join("beside/notes.txt");
        std::fs::create_dir(outside.parent().unwrap()).unwrap();
        std::fs::write(&outside, "not shared").unwrap();
        let base = ["PATH", "LANG", "LC_ALL", "TERM", "HOME"];
        let variable = std::env::vars_os()
            .filter_map(|(name, _)| name.into_string().ok())
            .find(|name| !base.contains(&name.as_str()) && !name.starts_with("PRY_"))
            .unwrap();
        Self {
            _home: home,
            secret,
            root,
            inside,
            outside,
            listener: TcpListener::bind("127.0.0.1:0").unwrap(),
            variable,
        }
    }

    /// The attempts, by the name the server reports each under, and what it tries.
    fn server(&self, sandbox: bool) -> Value {
        let joined = |paths: &[&Path]| {
            let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            paths.join(":")
        };
        let mut server = json!({
            "command": workspace_binary("hostile-peer").display().to_string(),
            "args": ["prying"],
            "env": {
                "PRY_READ": joined(&[&self.secret, Path::new("/etc/shadow"), &self.inside]),
                "PRY_WRITE": joined(&[&self.outside, &self.root.join("written.txt")]),
                "PRY_CONNECT": self.listener.local_addr().unwrap().to_string(),
                "PRY_ENV": self.variable,
            },
        });
        if sandbox {
            server["sandbox"] = json!({"network": false});
        }
        server
    }

    /// Each attempt the server makes, and whether it must succeed.
    fn expected(&self, sandbox: bool) -> Vec<(String, bool)> {
        let reaches = !sandbox;
        let address = self.listener.local_addr().unwrap();
        let mut expected = vec![
            (format!("read {}", self.secret.display()), reaches),
            (format!("write {}", self.outside.display()), reaches),
            (format!("connect {address}"), reaches),
            (format!("env {}", self.variable), reaches),
            (format!("read {}", self.inside.display()), true),
            (
                format!("write {}", self.root.join("written.txt").display()),
                true,
            ),
        ];
        // Without the sandbox the server has the person's rights: this file is root's.
        if sandbox || std::fs::read("/etc/shadow").is_ok() {
            expected.push(("read /etc/shadow".to_owned(), reaches));
        }
        expected
    }
}

#[tokio::test]
async fn a_prying_server_reaches_only_its_shared_folder_in_the_sandbox_and_everything_without() {
    for sandbox in [false, true] {
        let targets = Targets::new();
        let servers = json!({"prying": targets.server(sandbox)});
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
        let call = world.call("poke", json!({}), "pry");
        // The person confirms it (a tool that does not say it only reads), as ever: the
        // sandbox approves nothing by itself.
        let asked = world.asked().await;
        world
            .desk
            .trust()
            .answer_tool_call(asked.id, "prying", true, Map::new(), Remember::Once)
            .unwrap();
        let result = call.await.unwrap();
        let result = result.unwrap_or_else(|e| panic!("sandboxed: {sandbox}: {e}"));
        let found: Map<String, Value> = serde_json::from_str(&text_of(&result)).unwrap();
        for (attempt, succeeds) in targets.expected(sandbox) {
            let got = found[&attempt].as_str().unwrap();
            assert_eq!(
                got.starts_with("ok"),
                succeeds,
                "sandboxed: {sandbox}; {attempt}: {got}"
            );
        }
        let outside = std::fs::read_to_string(&targets.outside).unwrap();
        assert_eq!(outside == "pried", !sandbox, "sandboxed: {sandbox}");
        let written = std::fs::read_to_string(targets.root.join("written.txt")).unwrap();
        assert_eq!(written, "pried");
        world.desk.shutdown().await;
    }
}
