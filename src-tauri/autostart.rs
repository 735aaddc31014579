//! Start at login: an XDG autostart entry, `$XDG_CONFIG_HOME/autostart/<app id>.desktop`,
//! which every freedesktop session starts at login. Off until the person turns it on.
//!
//! A few lines of our own rather than tauri-plugin-autostart: its entry cannot carry the
//! environment that names a profile (a second configuration, keyring service or gateway
//! socket), so a second profile's entry would start the first; and the window needs no
//! JavaScript API of its own for it, only the app's two commands.

use std::path::{Path, PathBuf};

use switchboard_core::config::CONFIG_ENV;
use switchboard_core::endpoint::SOCKET_ENV;
use switchboard_core::secrets::SERVICE_ENV;

/// The argument of a start at login: the app starts in the tray, its window closed.
pub const IN_TRAY: &str = "--in-tray";

/// The variables that choose a profile, carried into the entry when set.
const PROFILE_ENV: [&str; 3] = [CONFIG_ENV, SERVICE_ENV, SOCKET_ENV];

/// Where the entry is: `$XDG_CONFIG_HOME/autostart`, by default `~/.config/autostart`.
pub fn entry_path() -> Option<PathBuf> {
    Some(dirs::config_dir()?.join("autostart/dev.switchboard.app.desktop"))
}

pub fn is_on(entry: &Path) -> bool {
    entry.is_file()
}

/// Writes the entry that starts `exe` (with the profile's variables of `env`) at login,
/// or removes it.
pub fn set(entry: &Path, on: bool, exe: &Path, env: &[(&str, String)]) -> std::io::Result<()> {
    if !on {
        return match std::fs::remove_file(entry) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    }
    if let Some(dir) = entry.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(entry, desktop_entry(exe, env))
}

/// The profile's variables set in this process.
pub fn profile_env() -> Vec<(&'static str, String)> {
    PROFILE_ENV
        .into_iter()
        .filter_map(|name| Some((name, std::env::var(name).ok()?)))
        .collect()
}

fn desktop_entry(exe: &Path, env: &[(&str, String)]) -> String {
    let mut command: Vec<String> = Vec::new();
    if !env.is_empty() {
        command.push("env".into());
        command.extend(env.iter().map(|(k, v)| quote(&format!("{k}={v}"))));
    }
    command.push(quote(&exe.to_string_lossy()));
    command.push(IN_TRAY.into());
    format!(
        "[Desktop Entry]\n\
         Type=Application\n\
         Name=Switchboard\n\
         Comment=Keeps your MCP servers running for your agents\n\
         Exec={}\n\
         Icon=switchboard\n\
         Terminal=false\n\
         X-GNOME-Autostart-enabled=true\n",
        command.join(" ")
    )
}

/// One argument of `Exec`, as the Desktop Entry Specification quotes it: in double quotes
/// when it holds a reserved character, with `"`, `` ` ``, `$` and `\` escaped, then `\`
/// and `%` escaped once more for the string value the line is.
fn quote(arg: &str) -> String {
    const RESERVED: &[char] = &[
        ' ', '\t', '\n', '"', '\'', '\\', '>', '<', '~', '|', '&', ';', '$', '*', '?', '#', '(',
        ')', '`',
    ];
    let arg = arg.replace('%', "%%");
    if !arg.contains(RESERVED) {
        return arg;
    }
    let mut quoted = String::from("\"");
    for c in arg.chars() {
        if matches!(c, '"' | '`' | '$' | '\\') {
            quoted.push('\\');
        }
        quoted.push(c);
    }
    quoted.push('"');
    quoted.replace('\\', "\\\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_entry_starts_the_app_in_the_tray_and_goes_when_turned_off() {
        let dir = tempfile::tempdir().expect("temp dir");
        let entry = dir.path().join("autostart/dev.switchboard.app.desktop");
        assert!(!is_on(&entry));
        set(&entry, true, Path::new("/usr/bin/switchboard"), &[]).expect("write");
        assert!(is_on(&entry));
        let text = std::fs::read_to_string(&entry).expect("read");
        assert!(
            text.starts_with("[Desktop Entry]\nType=Application\n"),
            "{text}"
        );
        assert!(
            text.contains("\nExec=/usr/bin/switchboard --in-tray\n"),
            "{text}"
        );
        set(&entry, false, Path::new("/usr/bin/switchboard"), &[]).expect("remove");
        assert!(!is_on(&entry));
        // Turning off what is off is no error.
        set(&entry, false, Path::new("/usr/bin/switchboard"), &[]).expect("remove again");
    }

    #[test]
    fn a_second_profile_starts_as_itself() {
        let text = desktop_entry(
            Path::new("/opt/my apps/switchboard"),
            &[("SWITCHBOARD_CONFIG", "/home/ada/work $1/config.json".into())],
        );
        let exec = text.lines().find(|l| l.starts_with("Exec=")).expect("Exec");
        assert_eq!(
            exec,
            r#"Exec=env "SWITCHBOARD_CONFIG=/home/ada/work \\$1/config.json" "/opt/my apps/switchboard" --in-tray"#
        );
    }

    #[test]
    fn a_percent_sign_is_not_taken_for_a_field_code() {
        assert_eq!(quote("/opt/100%/switchboard"), "/opt/100%%/switchboard");
    }
}
