//! Opens a web link in the person's browser, after they agreed to it in the window.

use std::process::{Command, Stdio};

use crate::{CommandError, ErrorCode};

#[cfg(target_os = "macos")]
const OPENER: &[&str] = &["open"];
#[cfg(target_os = "windows")]
const OPENER: &[&str] = &["explorer"];
#[cfg(not(any(target_os = "macos", target_os = "windows")))]
const OPENER: &[&str] = &["xdg-open"];

pub fn open(url: &str) -> Result<(), CommandError> {
    let fail = |e: std::io::Error| {
        CommandError::plain(
            ErrorCode::System,
            format!("could not open the browser ({}): {e}", OPENER.join(" ")),
        )
    };
    let mut child = Command::new(OPENER[0])
        .args(&OPENER[1..])
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(fail)?;
    // Reaped in the background: the opener may outlive this call.
    std::thread::spawn(move || child.wait());
    Ok(())
}
