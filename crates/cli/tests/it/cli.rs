//! The command line as a script would use it: the real binary, its output and exit codes.

use std::process::Command;

fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_switchboard-cli"))
}

#[test]
fn config_path_follows_the_override() {
    let out = cli()
        .arg("config-path")
        .env("SWITCHBOARD_CONFIG", "/srv/sb/config.json")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "/srv/sb/config.json\n"
    );
}

#[test]
fn an_empty_override_fails_with_a_clear_message() {
    let out = cli()
        .arg("config-path")
        .env("SWITCHBOARD_CONFIG", "")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "switchboard-cli: SWITCHBOARD_CONFIG is set but empty; set it to a file path or unset it\n"
    );
}

#[test]
fn revisions_are_printed_as_json_newest_first() {
    let out = cli().arg("revisions").output().unwrap();
    assert!(out.status.success());
    let revisions: Vec<String> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(revisions.first().map(String::as_str), Some("2026-07-28"));
    assert_eq!(revisions.last().map(String::as_str), Some("2024-11-05"));
    assert_eq!(revisions.len(), 5);
}
