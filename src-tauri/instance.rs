//! One running app per profile: a second launch on the same configuration shows the
//! window of the first and ends, instead of starting a second host on the same servers
//! (and failing to take their gateway). Another configuration (another profile) is another
//! app, with a name of its own on the session bus, and runs beside the first.

use std::hash::Hasher;
use std::path::Path;

use tauri::{Runtime, plugin::TauriPlugin};

/// The app's name on the session bus for the profile whose configuration is at `config`.
pub fn bus_name(config: &Path) -> String {
    // A relative path and its absolute form are one profile.
    let config = std::path::absolute(config).unwrap_or_else(|_| config.to_owned());
    // FNV-1a (the `fnv` crate): the same in every build and run, as the name must be for
    // two launches to meet (the standard library's hasher promises neither).
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(config.as_os_str().as_encoded_bytes());
    format!("dev.switchboard.app.profile_{:016x}", hasher.finish())
}

/// The single-instance plugin for the profile at `config`: the first launch keeps the name;
/// a later one hands its arguments over (an install link among them) and ends, and the
/// first shows its window.
pub fn plugin<R: Runtime>(config: &Path) -> TauriPlugin<R> {
    tauri_plugin_single_instance::Builder::new()
        .dbus_id(bus_name(config))
        .callback(|app, args, _cwd| {
            // A `switchboard://install` link the system opened with a second launch.
            // A second launch shows the window, with or without a link.
            crate::install_link::arrived(app, args);
            crate::window::present(app, None);
        })
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_keeps_its_name_and_another_profile_has_another() {
        let first = bus_name(Path::new("/home/ada/.config/switchboard/config.json"));
        assert_eq!(
            first,
            bus_name(Path::new("/home/ada/.config/switchboard/config.json"))
        );
        assert_ne!(first, bus_name(Path::new("/home/ada/work/config.json")));
        // A name the bus accepts: dot-separated elements of letters, digits and
        // underscores, none starting with a digit.
        assert!(first.starts_with("dev.switchboard.app.profile_"), "{first}");
        assert!(
            first
                .split('.')
                .all(|e| e.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !e.starts_with(|c: char| c.is_ascii_digit())),
            "{first}"
        );
    }

    #[test]
    fn a_relative_path_is_the_same_profile_as_its_absolute_form() {
        let here = std::env::current_dir().expect("current dir");
        assert_eq!(
            bus_name(Path::new("config.json")),
            bus_name(&here.join("config.json"))
        );
    }
}
