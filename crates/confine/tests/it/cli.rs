//! The command line: `--probe`, and the failures before `exec`.

use std::process::Command;

use crate::{CONFINE, confine, run, text};

#[test]
fn probe_reports_the_landlock_abi() {
    let output = run(Command::new(CONFINE).arg("--probe"));
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let abi = stdout
        .strip_prefix("landlock abi ")
        .and_then(|rest| rest.strip_suffix(", seccomp\n"))
        .and_then(|abi| abi.parse::<u32>().ok());
    assert!(abi.is_some_and(|abi| abi >= 1), "{stdout:?}");
}

#[test]
fn a_missing_program_exits_127() {
    for program in ["/nonexistent/server", "switchboard-no-such-server"] {
        let output = run(confine().args(["--", program, "--stdio"]));
        assert_eq!(output.status.code(), Some(127), "{program}");
        let stderr = text(&output.stderr);
        assert!(
            stderr.starts_with("switchboard-confine: ") && stderr.contains(program),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn a_program_outside_the_listed_paths_is_not_run() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let program = dir.path().join("server");
    std::fs::copy("/bin/true", &program).expect("a program");
    let output = run(confine().arg("--").arg(&program));
    assert_eq!(output.status.code(), Some(126));
    assert!(
        text(&output.stderr).starts_with("switchboard-confine: cannot run "),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn bad_arguments_exit_126_with_the_usage() {
    for args in [
        &["--bogus", "--", "/bin/true"][..],
        &["--read"][..],
        &["--read", "/usr", "/bin/true"][..],
        &["--no-network", "--"][..],
        &["--probe", "--no-network"][..],
        &[][..],
    ] {
        let output = run(Command::new(CONFINE).args(args));
        assert_eq!(output.status.code(), Some(126), "{args:?}");
        let stderr = text(&output.stderr);
        assert!(
            stderr.starts_with("switchboard-confine: ") && stderr.contains("usage: "),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(output.stdout.is_empty());
    }
}
