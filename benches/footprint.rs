//! The app's footprint, measured on the real app in its window under Xvfb (driven by
//! WebDriver, as the end-to-end tests drive it): with 1 and with 20 demo servers, the
//! whole process tree's PSS and RSS once everything runs and has settled (the app, the
//! WebKit web and network processes, the servers), the time to the first painted window
//! and to every server Running, and the size of the UI's JavaScript. Beside it, in the
//! same run and the same way, its floor: a bare Tauri window showing an empty page with
//! the app's own WebKit and process settings (`benches/floor`); each row of the app says
//! what it holds above that floor. Then the time from launching the app (no WebDriver) to
//! its window painted. A benchmark: it prints figures and fails on nothing but a broken
//! setup.
//!
//!   cargo build --release -p switchboard-demo-server
//!   cargo build --release -p switchboard --example footprint-floor
//!   npm run --prefix ui build
//!   cargo bench -p switchboard --bench footprint [-- --servers N] [--launches N] [--app PATH]
//!
//! `--app` measures another build of the app (with the demo server beside it, and the floor
//! of the same profile in `examples/`): runs of two builds, alternated, compare them on the
//! same machine; `--app target/ship/switchboard` measures what the packages ship
//! (`cargo build --profile ship -p switchboard -p switchboard-demo-server`, then
//! `cargo build --profile ship -p switchboard --example footprint-floor`).
//!
//! Each row is followed by its breakdown per program (the app, each WebKit process, the
//! servers together), PSS split into anonymous memory (the program's own) and file pages
//! (its share of the libraries and files it maps): what to cut is read from there.
//!
//! PSS divides a library's pages among *every* process on the machine that maps them, so
//! on a machine where other WebKit programs run, the same app reads lower. "Own" counts
//! the distinct physical pages the tree holds (read from `/proc/<pid>/pagemap`, which
//! needs root): what ending the app would give back if nothing else shared its
//! libraries. It does not move with the neighbours; compare builds by it.

#[path = "../tests/it/support/mod.rs"]
mod support;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use support::display::{self, Display};
use support::driver::TauriDriver;
use support::webdriver::Session;
use support::window::{App, SHOWN};

/// How long the app is left alone before its memory is read: idle, not starting.
const SETTLE: Duration = Duration::from_secs(3);

/// What the breakdown calls the program the tree grows from (the app, or the floor's).
const MAIN: &str = "app";

fn main() {
    // This build's app, or another build given to compare with it in runs side by side.
    let app_binary = &arg_after("--app").map_or(
        PathBuf::from(env!("CARGO_BIN_EXE_switchboard")),
        PathBuf::from,
    );
    let demo = app_binary.with_file_name("switchboard-demo-server");
    assert!(
        demo.is_file(),
        "build the demo server beside the app first: cargo build --release -p switchboard-demo-server"
    );
    // The floor built with the same profile as the app measured.
    let floor_binary = app_binary
        .with_file_name("examples")
        .join("footprint-floor");
    println!(
        "The app's footprint ({}, under Xvfb; PSS shares each page among its users)",
        app_binary.display()
    );
    println!(
        "{:>8} {:>14} {:>14} {:>14} {:>10} {:>14} {:>14}",
        "servers",
        "PSS (MiB)",
        "own (MiB)",
        "RSS sum (MiB)",
        "processes",
        "painted (ms)",
        "running (ms)"
    );
    let floor = if floor_binary.is_file() {
        let floor = measure_floor(&floor_binary);
        floor.print("floor");
        Some(floor)
    } else {
        println!(
            "   floor: not built (cargo build --release -p switchboard --example footprint-floor)"
        );
        None
    };
    for servers in server_counts() {
        let app = measure_app(app_binary, servers);
        app.print(&servers.to_string());
        if let Some(floor) = &floor {
            app.compare(floor);
        }
    }
    let launches = painted_after_launch(
        app_binary,
        arg_after("--launches")
            .and_then(|n| n.parse().ok())
            .unwrap_or(5),
    );
    println!(
        "Window painted after launch, without WebDriver, 1 server ({} launches): median {} ms (fastest {} ms, slowest {} ms)",
        launches.len(),
        launches[launches.len() / 2].as_millis(),
        launches[0].as_millis(),
        launches[launches.len() - 1].as_millis(),
    );
    let (js, files) = javascript_size(&Path::new(env!("CARGO_MANIFEST_DIR")).join("ui/dist"));
    println!(
        "UI JavaScript: {:.1} KiB in {files} files",
        js as f64 / 1024.0
    );
}

/// The app with `servers` demo servers, read once all run and it has settled.
fn measure_app(app_binary: &Path, servers: usize) -> Reading {
    let started = Instant::now();
    let app = App::start_build(app_binary, |dir| {
        std::fs::write(dir.join("config.json"), demo_config(servers).to_string())
            .expect("write the config");
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
    Reading::of(app_binary, painted, Some(running))
}

/// The floor, started the way the app is (Xvfb, the driver, a WebDriver session) and read
/// the same way once its page is in.
fn measure_floor(floor_binary: &Path) -> Reading {
    let started = Instant::now();
    let dir = tempfile::tempdir().expect("temp dir");
    let home = |name: &str| dir.path().join(name).to_str().expect("utf-8").to_owned();
    let (data, config) = (home("data"), home("config"));
    let display = Display::start();
    let driver = TauriDriver::start(
        &display,
        &[("XDG_DATA_HOME", &data), ("XDG_CONFIG_HOME", &config)],
    );
    let window = Session::open(&display, &driver.url, floor_binary, SHOWN);
    window.find("body");
    let painted = started.elapsed();
    Reading::of(floor_binary, painted, None)
}

/// A configuration with `servers` demo servers.
fn demo_config(servers: usize) -> serde_json::Value {
    let entries: serde_json::Map<_, _> = (1..=servers)
        .map(|n| {
            (
                format!("demo-{n}"),
                json!({"command": "switchboard-demo-server"}),
            )
        })
        .collect();
    json!({"mcpServers": entries})
}

/// The time from launching the app, as a person does (no WebDriver), to its window
/// painted on the screen, `runs` times on a display of its own each time, sorted. A launch
/// whose app ends before it paints (it could not open the display) is said and made again.
fn painted_after_launch(app_binary: &Path, runs: usize) -> Vec<Duration> {
    let mut times = Vec::new();
    let mut failed = 0;
    while times.len() < runs.max(1) {
        match launch_once(app_binary) {
            Ok(painted) => times.push(painted),
            Err(said) if failed < runs => {
                failed += 1;
                println!("   a launch ended before its window was painted; the app said: {said}");
            }
            Err(said) => panic!("the window was never painted; the app said:\n{said}"),
        }
    }
    times.sort();
    times
}

/// One launch on a fresh display: the time to the window painted, or what the app said.
fn launch_once(app_binary: &Path) -> Result<Duration, String> {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("config.json"), demo_config(1).to_string())
        .expect("write the config");
    let (env, _) = support::window::environment(dir.path(), &mut Vec::new());
    let display = Display::start();
    let log_path = dir.path().join("app.log");
    let log = std::fs::File::create(&log_path).expect("create the app's log");
    let started = Instant::now();
    let mut app = Command::new(app_binary)
        .env("DISPLAY", &display.name)
        .envs(env)
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("launch the app");
    // Painted: the page's text is on the screen (a blank window shows one colour).
    let mut painted = None;
    while painted.is_none()
        && started.elapsed() < SHOWN
        && app.try_wait().is_ok_and(|ended| ended.is_none())
    {
        if display::shows_colours(&display.name, 64) {
            painted = Some(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // Ended as a logout ends it: the app stops its server on the way out.
    let pid = nix::unistd::Pid::from_raw(app.id() as i32);
    let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
    let _ = app.wait();
    painted.ok_or_else(|| {
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        log.lines()
            .find(|l| l.contains("Failed") || l.contains("rror"))
            .unwrap_or(&log)
            .to_owned()
    })
}

/// One window's process tree, read once it has settled.
struct Reading {
    /// Per program, largest first.
    programs: Vec<Usage>,
    total: Usage,
    processes: usize,
    /// Distinct resident pages, when they can be read.
    own: Option<u64>,
    painted: Duration,
    running: Option<Duration>,
}

impl Reading {
    fn of(binary: &Path, painted: Duration, running: Option<Duration>) -> Self {
        std::thread::sleep(SETTLE);
        let pids = process_tree(binary);
        let own = own_pages(&pids);
        let tree: Vec<Usage> = pids.into_iter().map(|pid| Usage::of(pid, binary)).collect();
        let total = tree.iter().fold(Usage::default(), |sum, u| sum.plus(u));
        Self {
            programs: per_program(&tree),
            processes: tree.len(),
            total,
            own,
            painted,
            running,
        }
    }

    /// Its row (`label` in the servers' column), then its breakdown per program.
    fn print(&self, label: &str) {
        let own = self.own.map_or("n/a (not root)".to_string(), |pages| {
            format!("{:.1}", mib(pages * 4))
        });
        let running = self
            .running
            .map_or("-".to_string(), |r| r.as_millis().to_string());
        println!(
            "{label:>8} {:>14.1} {own:>14} {:>14.1} {:>10} {:>14} {running:>14}",
            mib(self.total.pss),
            mib(self.total.rss),
            self.processes,
            self.painted.as_millis(),
        );
        for p in &self.programs {
            println!(
                "{:>10} {:<24} PSS {:>6.1} MiB (anonymous {:>6.1}, files {:>6.1}), RSS {:>6.1} MiB",
                format!("{} x", p.processes),
                p.program,
                mib(p.pss),
                mib(p.pss_anon),
                mib(p.pss_file),
                mib(p.rss)
            );
        }
    }

    /// What it holds above `floor`: the ratios of the whole, then each program's excess.
    fn compare(&self, floor: &Reading) {
        let own = match (self.own, floor.own) {
            (Some(own), Some(base)) => format!(", own {:.2}x", own as f64 / base as f64),
            _ => String::new(),
        };
        println!(
            "{:>10} {:.2}x the floor in PSS{own}, {:.2}x in anonymous PSS",
            "",
            self.total.pss as f64 / floor.total.pss as f64,
            self.total.pss_anon as f64 / floor.total.pss_anon as f64,
        );
        for p in &self.programs {
            let base = floor.programs.iter().find(|b| b.program == p.program);
            let (pss, anon) = base.map_or((0, 0), |b| (b.pss, b.pss_anon));
            println!(
                "{:>10} {:<24} {:+6.1} MiB PSS above the floor (anonymous {:+6.1})",
                "",
                p.program,
                (p.pss as f64 - pss as f64) / 1024.0,
                (p.pss_anon as f64 - anon as f64) / 1024.0,
            );
        }
    }
}

/// The rows to measure: 1 and 20 servers, or the counts given as `--servers N`.
fn server_counts() -> Vec<usize> {
    let args: Vec<String> = std::env::args().collect();
    let given: Vec<usize> = args
        .windows(2)
        .filter(|pair| pair[0] == "--servers")
        .filter_map(|pair| pair[1].parse().ok())
        .collect();
    if given.is_empty() { vec![1, 20] } else { given }
}

/// What the command line gives after `flag`, if anything.
fn arg_after(flag: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.windows(2)
        .find(|pair| pair[0] == flag)
        .map(|pair| pair[1].clone())
}

/// One process's memory, in KiB.
#[derive(Default, Clone)]
struct Usage {
    program: String,
    processes: usize,
    pss: u64,
    pss_anon: u64,
    pss_file: u64,
    rss: u64,
}

impl Usage {
    /// Process `pid`'s memory; the tree's own program (`main`) is named `MAIN`.
    fn of(pid: i32, main: &Path) -> Self {
        let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok();
        let main = main.canonicalize().unwrap_or(main.to_owned());
        let program = match exe {
            Some(exe) if exe == main => MAIN.to_string(),
            Some(exe) => exe
                .file_name()
                .map_or("?".into(), |name| name.to_string_lossy().into_owned()),
            None => "?".into(),
        };
        Self {
            program,
            processes: 1,
            pss: kib(pid, "smaps_rollup", "Pss:"),
            pss_anon: kib(pid, "smaps_rollup", "Pss_Anon:"),
            pss_file: kib(pid, "smaps_rollup", "Pss_File:"),
            rss: kib(pid, "status", "VmRSS:"),
        }
    }

    fn plus(mut self, other: &Usage) -> Self {
        self.processes += other.processes;
        self.pss += other.pss;
        self.pss_anon += other.pss_anon;
        self.pss_file += other.pss_file;
        self.rss += other.rss;
        self
    }
}

/// The tree's memory per program, largest first.
fn per_program(tree: &[Usage]) -> Vec<Usage> {
    let mut programs: Vec<Usage> = Vec::new();
    for usage in tree {
        match programs.iter_mut().find(|p| p.program == usage.program) {
            Some(sum) => *sum = std::mem::take(sum).plus(usage),
            None => programs.push(usage.clone()),
        }
    }
    programs.sort_by_key(|p| std::cmp::Reverse(p.pss));
    programs
}

/// The distinct resident physical pages of the processes, or `None` when the kernel hides
/// page frame numbers (reading them needs CAP_SYS_ADMIN).
fn own_pages(pids: &[i32]) -> Option<u64> {
    use std::collections::HashSet;
    use std::io::{Read, Seek, SeekFrom};
    const PAGE: u64 = 4096;
    const PRESENT: u64 = 1 << 63;
    const FRAME: u64 = (1 << 55) - 1;
    let mut frames = HashSet::new();
    let mut present = 0u64;
    for pid in pids {
        let (Ok(smaps), Ok(mut pagemap)) = (
            std::fs::read_to_string(format!("/proc/{pid}/smaps")),
            std::fs::File::open(format!("/proc/{pid}/pagemap")),
        ) else {
            continue;
        };
        // Only the mappings with resident pages: JavaScriptCore reserves tens of GiB it
        // never touches.
        let mut range = None;
        let mut resident = Vec::new();
        for line in smaps.lines() {
            if let Some((a, b)) = line
                .split_whitespace()
                .next()
                .and_then(|field| field.split_once('-'))
                && let (Ok(a), Ok(b)) = (u64::from_str_radix(a, 16), u64::from_str_radix(b, 16))
            {
                range = Some((a, b));
            } else if let Some(rss) = line.strip_prefix("Rss:")
                && rss.trim().trim_end_matches("kB").trim() != "0"
                && let Some(r) = range.take()
            {
                resident.push(r);
            }
        }
        for (start, end) in resident {
            let mut page = start / PAGE;
            while page < end / PAGE {
                let count = (end / PAGE - page).min(1 << 16);
                let mut entries = vec![0u8; count as usize * 8];
                if pagemap.seek(SeekFrom::Start(page * 8)).is_err()
                    || pagemap.read_exact(&mut entries).is_err()
                {
                    break;
                }
                for entry in entries.chunks_exact(8) {
                    let entry = u64::from_le_bytes(entry.try_into().unwrap_or_default());
                    if entry & PRESENT != 0 {
                        present += 1;
                        frames.insert(entry & FRAME);
                    }
                }
                page += count;
            }
        }
    }
    // Without the privilege every frame reads as 0.
    (present == 0 || !(frames.len() == 1 && frames.contains(&0))).then_some(frames.len() as u64)
}

fn mib(kib: u64) -> f64 {
    kib as f64 / 1024.0
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
