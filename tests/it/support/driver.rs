//! `tauri-driver`, which starts WebKitWebDriver, which starts the app.

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use super::display::Display;
pub use switchboard_test_support::ports::free_port;

pub struct TauriDriver {
    child: Child,
    pub url: String,
}

impl TauriDriver {
    /// Starts the driver on free ports, with `env` added to what the app will inherit,
    /// and returns once it answers WebDriver's status endpoint.
    pub fn start(display: &Display, env: &[(&str, &str)]) -> Self {
        let (port, native_port) = (free_port(), free_port());
        let child = Command::new("tauri-driver")
            .args([
                "--port",
                &port.to_string(),
                "--native-port",
                &native_port.to_string(),
            ])
            .env("DISPLAY", &display.name)
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            // Its own process group, so that the driver, WebKitWebDriver and the app all go at once.
            .process_group(0)
            .spawn()
            .expect("start tauri-driver (run scripts/setup to install it)");
        let driver = Self {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        driver.wait_until_ready(Duration::from_secs(30));
        driver
    }

    fn wait_until_ready(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        let mut pause = Duration::from_millis(10);
        loop {
            let status = ureq::get(&format!("{}/status", self.url))
                .call()
                .ok()
                .and_then(|mut r| r.body_mut().read_json::<serde_json::Value>().ok());
            if status.is_some_and(|s| s["value"]["ready"] == true) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "tauri-driver did not become ready within {limit:?}"
            );
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(200));
        }
    }
}

impl Drop for TauriDriver {
    fn drop(&mut self) {
        let group = Pid::from_raw(self.child.id() as i32);
        let _ = killpg(group, Signal::SIGTERM);
        let _ = self.child.wait();
        // Anything of the group that ignored SIGTERM.
        let _ = killpg(group, Signal::SIGKILL);
    }
}
