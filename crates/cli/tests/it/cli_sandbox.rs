//! A server tried in the sandbox from a terminal (`--sandbox`): a prying server (the hostile
//! peer's `prying` mode) reaches the person's files, the network and the terminal's
//! environment without it, and with it (either engine) only its `--root` folder.

use std::process::Command;

use serde_json::Value;
use switchboard_test_support::binaries::workspace_binary;
use switchboard_test_support::prying::Targets;

#[test]
fn a_prying_server_reaches_only_its_root_with_sandbox_and_everything_without() {
    // Each way: the engine asked for, and whether bubblewrap is on the `PATH` (without it,
    // the sandbox chosen by itself is Landlock's).
    let ways = [
        (None, true),
        (Some("bubblewrap"), true),
        (Some("landlock"), true),
        (Some("auto"), false),
    ];
    for (engine, with_bwrap) in ways {
        let sandbox = engine.is_some();
        let targets = Targets::new();
        let mut cli = Command::new(env!("CARGO_BIN_EXE_switchboard-cli"));
        cli.args(["call", "poke", "--root"]).arg(&targets.root);
        for (name, value) in targets.env() {
            cli.arg("--env").arg(format!("{name}={value}"));
        }
        if let Some(engine) = engine {
            cli.args(["--sandbox", "--sandbox-engine", engine]);
        }
        if !with_bwrap {
            cli.env("PATH", "/nonexistent");
        }
        let output = cli
            .arg("--")
            .arg(workspace_binary("hostile-peer"))
            .arg("prying")
            .output()
            .expect("run switchboard-cli");
        assert!(
            output.status.success(),
            "{engine:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let result: Value = serde_json::from_slice(&output.stdout).expect("JSON on stdout");
        let reported = result["content"][0]["text"].as_str().unwrap_or_default();
        targets.check(sandbox, reported);
        if !with_bwrap {
            // Landlock refuses what it hides (bubblewrap's view has no such file at all).
            assert!(reported.contains("Permission denied"), "{reported}");
        }
    }
}
