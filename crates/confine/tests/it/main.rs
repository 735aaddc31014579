//! Runs the built `switchboard-confine` around `/bin/sh` and `python3`, with the system
//! folders readable as the host gives them, and checks what a server inside would notice.

mod cli;
mod fs;
mod net;

use std::path::Path;
use std::process::{Command, Output};

/// What the host lets every server read: its programs, libraries and the loader's cache.
const SYSTEM: [&str; 5] = ["/usr", "/bin", "/lib", "/lib64", "/etc/ld.so.cache"];

/// Debian's Python, beneath `/usr` (the `python3` on PATH may be a shim elsewhere).
const PYTHON: &str = "/usr/bin/python3";

const CONFINE: &str = env!("CARGO_BIN_EXE_switchboard-confine");

/// The helper with the system folders readable; add flags, `--` and the program.
fn confine() -> Command {
    let mut command = Command::new(CONFINE);
    for path in SYSTEM {
        command.args(["--read", path]);
    }
    command
}

/// Runs `command` to its end.
fn run(command: &mut Command) -> Output {
    command.output().expect("the helper runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A path as an argument for the shell scripts (the temporary folders have plain names).
fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 temporary path")
}
