//! The app's footprint, measured on the real app in its window under Xvfb (driven by
//! WebDriver, as the end-to-end tests drive it): with 1 and with 20 demo servers, the
//! whole process tree's PSS and RSS once everything runs and has settled (the app, the
//! WebKit web and network processes, the servers), the time to the first painted window
//! and to every server Running, and the size of the UI's JavaScript. A benchmark: it
//! prints figures and fails on nothing but a broken setup.
//!
//!   cargo build --release -p switchboard-demo-server && npm run --prefix ui build
//!   cargo bench -p switchboard --bench footprint

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use support::window::{App, SHOWN};

/// How long the app is left alone before its memory is read: idle, not starting.
const SETTLE: Duration = Duration::from_secs(3);

fn main() {
    let app_binary = Path::new(env!("CARGO_BIN_EXE_switchboard"));
    let demo = app_binary.with_file_name("switchboard-demo-server");
    assert!(
        demo.is_file(),
        "build the demo server beside the app first: cargo build --release -p switchboard-demo-server"
    );
    println!(
        "The app's footprint (release build, under Xvfb; PSS shares each page among its users)"
    );
    println!(
        "{:>8} {:>14} {:>14} {:>10} {:>14} {:>14}",
        "servers", "PSS (MiB)", "RSS sum (MiB)", "processes", "painted (ms)", "running (ms)"
    );
    for servers in [1, 20] {
        let started = Instant::now();
        let app = App::start_with(|dir| {
            let entries: serde_json::Map<_, _> = (1..=servers)
                .map(|n| {
                    (
                        format!("demo-{n}"),
                        json!({"command": "switchboard-demo-server"}),
                    )
                })
                .collect();
            let config = json!({"mcpServers": entries});
            std::fs::write(dir.join("config.json"), config.to_string()).expect("write the config");
            Vec::new()
        });
        let w = &app.window;
        // The first view is drawn once its navigation is in the page.
        w.find("nav[aria-label='Main'] button");
        let painted = started.elapsed();
        app.view("servers");
        w.wait_for_all(".server-list li", "every server running", SHOWN, |rows| {
            rows.iter().filter(|r| r.contains("Running")).count() == servers
        });
        let running = started.elapsed();
        std::thread::sleep(SETTLE);
        let tree = process_tree(app_binary);
        let (pss, rss) = tree.iter().fold((0, 0), |(p, r), pid| {
            (
                p + kib(*pid, "smaps_rollup", "Pss:"),
                r + kib(*pid, "status", "VmRSS:"),
            )
        });
        println!(
            "{servers:>8} {:>14.1} {:>14.1} {:>10} {:>14} {:>14}",
            pss as f64 / 1024.0,
            rss as f64 / 1024.0,
            tree.len(),
            painted.as_millis(),
            running.as_millis()
        );
    }
    let (js, files) = javascript_size(&Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/dist"));
    println!(
        "UI JavaScript: {:.1} KiB in {files} files",
        js as f64 / 1024.0
    );
}

/// The app's process and all its descendants (WebKit's processes, the servers), found
/// by the app's executable: the driver that started it is not the app.
fn process_tree(app_binary: &Path) -> Vec<i32> {
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    let mut apps = Vec::new();
    let app_binary = app_binary.canonicalize().unwrap_or(app_binary.to_owned());
    for pid in all_pids() {
        if let Some(parent) = parent_of(pid) {
            children.entry(parent).or_default().push(pid);
        }
        let exe = std::fs::read_link(format!("/proc/{pid}/exe"));
        if exe.is_ok_and(|exe| exe == app_binary) {
            apps.push(pid);
        }
    }
    let mut tree = Vec::new();
    while let Some(pid) = apps.pop() {
        tree.push(pid);
        apps.extend(children.get(&pid).into_iter().flatten());
    }
    tree
}

fn all_pids() -> Vec<i32> {
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(") ")?;
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// The value in kB of the line starting with `field` in `/proc/<pid>/<file>`; 0 if gone.
fn kib(pid: i32, file: &str, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/{file}"))
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with(field))?;
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

/// The bytes of JavaScript the window loads, and in how many files.
fn javascript_size(dist: &Path) -> (u64, usize) {
    let assets = std::fs::read_dir(dist.join("assets")).expect("build the UI first");
    assets
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "js"))
        .fold((0, 0), |(bytes, files), e| {
            (
                bytes + e.metadata().map(|m| m.len()).unwrap_or(0),
                files + 1,
            )
        })
}
