//! The workspace's own programs (the demo server, the command line, the test peers) as a
//! test finds them: built by `cargo build -p <name>` into the target folder of the test
//! binary itself.

use std::path::{Path, PathBuf};

/// The program `name` of this workspace, beside the running test binary's folder (test
/// binaries live in `target/<profile>/deps`, the workspace's programs one level up).
pub fn workspace_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let path = exe
        .parent()
        .and_then(Path::parent)
        .expect("target profile dir")
        .join(name);
    assert!(
        path.exists(),
        "{name} is missing at {}: cargo build -p {name}",
        path.display()
    );
    path
}
