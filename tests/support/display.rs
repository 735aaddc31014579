//! A private X server for the window under test.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

pub struct Display {
    child: Child,
    pub name: String,
}

impl Display {
    /// Starts Xvfb on the first free display number. Xvfb writes that number to the
    /// `-displayfd` descriptor once it accepts connections, which is our readiness signal.
    pub fn start() -> Self {
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "1280x800x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb (is the `xvfb` package installed? run scripts/setup)");
        let stdout = child.stdout.take().expect("Xvfb stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the display number from Xvfb");
        let number = line.trim();
        assert!(!number.is_empty(), "Xvfb exited before it was ready");
        Self {
            child,
            name: format!(":{number}"),
        }
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
