//! Where the configuration file lives.

use std::ffi::OsString;
use std::path::PathBuf;

/// Overrides the configuration file's location (used by tests and portable installs).
pub const CONFIG_ENV: &str = "SWITCHBOARD_CONFIG";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigPathError {
    #[error(
        "the system has no configuration directory for this user; set {CONFIG_ENV} to a file path"
    )]
    NoConfigDir,
    #[error("{CONFIG_ENV} is set but empty; set it to a file path or unset it")]
    EmptyOverride,
}

/// The configuration file: `$SWITCHBOARD_CONFIG` if set, else `switchboard/config.json`
/// in the OS configuration directory (`~/.config` on Linux).
pub fn config_path() -> Result<PathBuf, ConfigPathError> {
    resolve_config_path(std::env::var_os(CONFIG_ENV), dirs::config_dir())
}

fn resolve_config_path(
    override_path: Option<OsString>,
    config_dir: Option<PathBuf>,
) -> Result<PathBuf, ConfigPathError> {
    match override_path {
        Some(path) if path.is_empty() => Err(ConfigPathError::EmptyOverride),
        Some(path) => Ok(PathBuf::from(path)),
        None => config_dir
            .map(|dir| dir.join("switchboard").join("config.json"))
            .ok_or(ConfigPathError::NoConfigDir),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_override_wins_over_the_os_directory() {
        let path = resolve_config_path(
            Some("/tmp/x/sb.json".into()),
            Some("/home/u/.config".into()),
        );
        assert_eq!(path, Ok(PathBuf::from("/tmp/x/sb.json")));
    }

    #[test]
    fn the_default_lives_in_a_switchboard_folder_of_the_os_directory() {
        let path = resolve_config_path(None, Some("/home/u/.config".into()));
        assert_eq!(
            path,
            Ok(PathBuf::from("/home/u/.config/switchboard/config.json"))
        );
    }

    #[test]
    fn missing_or_empty_locations_are_clear_errors() {
        assert_eq!(
            resolve_config_path(None, None),
            Err(ConfigPathError::NoConfigDir)
        );
        assert_eq!(
            resolve_config_path(Some(OsString::new()), Some("/c".into())),
            Err(ConfigPathError::EmptyOverride)
        );
        assert!(
            ConfigPathError::NoConfigDir
                .to_string()
                .contains("SWITCHBOARD_CONFIG")
        );
    }
}
