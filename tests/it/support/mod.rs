//! Real parts for end-to-end tests: an X display, `tauri-driver`, and a WebDriver client.
#![allow(dead_code)]

pub mod agent;
pub mod audit;
pub mod desktop;
pub mod display;
pub mod driver;
pub mod keyboard;
pub mod peer;
pub mod webdriver;
pub mod window;

use std::path::PathBuf;

/// Where tests leave what a person may want to look at afterwards (screenshots).
pub fn artifacts_dir() -> PathBuf {
    let dir = std::env::var_os("SWITCHBOARD_TEST_ARTIFACTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test-artifacts"));
    std::fs::create_dir_all(&dir).expect("create the artifacts directory");
    dir
}
