//! Reading and writing the configuration file: a broken file is reported with its line
//! and left untouched; a write replaces the file atomically or not at all. Writers take
//! turns: every change reads the file afresh under one lock, so what another writer (or
//! the person, by hand) put there since is kept.

use parking_lot::{Mutex, MutexGuard};
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use super::Config;
use crate::atomic_file::{self, folder_of};

/// What is wrong with the configuration file, as the person is told it: the file and the
/// system's or the parser's words by kind, for a face to say in its language. `Display`
/// is the host's English.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, thiserror::Error)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum ConfigProblem {
    #[error("could not read {path}: {detail}")]
    Unreadable { path: String, detail: String },
    #[error(
        "{path} is not a valid configuration: {message} (line {line}, column {column}); the file was left as it is"
    )]
    Invalid {
        path: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// A change could not be written: the system's words.
    #[error("could not write {path}: {detail}")]
    Unwritable { path: String, detail: String },
    /// A change's write did not finish (the app is stopping).
    #[error("the write of {path} did not finish: {why}")]
    Interrupted { path: String, why: String },
    /// Another error's words, as they came.
    #[error("{text}")]
    Said { text: String },
}

impl ConfigError {
    /// What the person is told of it.
    pub fn problem(&self) -> ConfigProblem {
        match self {
            Self::Read { path, source } => ConfigProblem::Unreadable {
                path: path.display().to_string(),
                detail: source.to_string(),
            },
            Self::Invalid {
                path,
                line,
                column,
                message,
            } => ConfigProblem::Invalid {
                path: path.display().to_string(),
                line: *line,
                column: *column,
                message: message.clone(),
            },
            Self::Write { path, source } => ConfigProblem::Unwritable {
                path: path.display().to_string(),
                detail: source.to_string(),
            },
            Self::Interrupted { path, why } => ConfigProblem::Interrupted {
                path: path.display().to_string(),
                why: why.clone(),
            },
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("could not read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("{} is not a valid configuration: {message} (line {line}, column {column}); the file was left as it is", path.display())]
    Invalid {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("could not write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    /// The blocking thread of a write ended without an answer (the runtime is stopping).
    #[error("the write of {} did not finish: {why}", path.display())]
    Interrupted { path: PathBuf, why: String },
}

/// Held by whoever writes a configuration file in this process. Writes are rare and
/// short, so one lock for every file is enough.
static WRITER: Mutex<()> = Mutex::new(());

/// The right to write a configuration file: this process's lock, and an exclusive lock
/// on the folder that holds it, which every process writing it takes (another instance
/// of the app, the command line), so that no two writes interleave a read and a write.
/// The folder, not the file: the file is replaced by each write, and a lock file would
/// be one more file in the person's folder.
struct Writing {
    _in_process: MutexGuard<'static, ()>,
    _across_processes: File,
}

fn writer(path: &Path) -> Result<Writing, ConfigError> {
    // The lock guards no data: a writer that panicked left nothing half done in memory.
    let in_process = WRITER.lock();
    let failed = |source| ConfigError::Write {
        path: path.to_owned(),
        source,
    };
    let dir = folder_of(path);
    fs::create_dir_all(dir).map_err(failed)?;
    let folder = File::open(dir).map_err(failed)?;
    folder.lock().map_err(failed)?;
    Ok(Writing {
        _in_process: in_process,
        _across_processes: folder,
    })
}

/// Reads the configuration; a file that does not exist yet is an empty configuration.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let text = match fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Config::default()),
        Err(source) => {
            return Err(ConfigError::Read {
                path: path.to_owned(),
                source,
            });
        }
    };
    serde_json::from_str(&text).map_err(|e| ConfigError::Invalid {
        path: path.to_owned(),
        line: e.line(),
        column: e.column(),
        message: describe(&e),
    })
}

/// Reads the configuration; on a first run (no file yet), writes `first_run()` and returns it.
pub fn load_or_create(
    path: &Path,
    first_run: impl FnOnce() -> Config,
) -> Result<Config, ConfigError> {
    let _writing = writer(path)?;
    if path.exists() {
        return load(path);
    }
    let config = first_run();
    write(path, &config)?;
    Ok(config)
}

/// Changes the configuration as the file holds it now, and writes it back; returns what
/// was written. No other writer, of this process or another, comes between the read and
/// the write.
/// A file that does not read, or a change that fails, writes nothing.
pub fn update<E: From<ConfigError>>(
    path: &Path,
    change: impl FnOnce(&mut Config) -> Result<(), E>,
) -> Result<Config, E> {
    update_giving(path, change).map(|(config, ())| config)
}

/// [`update`], giving back what `change` gave too.
fn update_giving<T, E: From<ConfigError>>(
    path: &Path,
    change: impl FnOnce(&mut Config) -> Result<T, E>,
) -> Result<(Config, T), E> {
    let _writing = writer(path)?;
    let mut config = load(path)?;
    let gave = change(&mut config)?;
    write(path, &config)?;
    Ok((config, gave))
}

/// [`update`] on a blocking thread, for async code: waiting for the file's lock (another
/// instance of the app, the command line), reading and writing hold up no other task.
/// Gives back what was written, and what `change` gave.
pub async fn update_off_thread<T, E>(
    path: PathBuf,
    change: impl FnOnce(&mut Config) -> Result<T, E> + Send + 'static,
) -> Result<(Config, T), E>
where
    T: Send + 'static,
    E: From<ConfigError> + Send + 'static,
{
    let at = path.clone();
    match tokio::task::spawn_blocking(move || update_giving(&path, change)).await {
        Ok(written) => written,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        Err(e) => Err(ConfigError::Interrupted {
            path: at,
            why: e.to_string(),
        }
        .into()),
    }
}

/// serde's message without its own "at line N column M" suffix, which we say our way.
fn describe(error: &serde_json::Error) -> String {
    let text = error.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

/// Writes the whole configuration, replacing what the file holds. To change part of it,
/// `update` keeps what others wrote meanwhile.
pub fn save(path: &Path, config: &Config) -> Result<(), ConfigError> {
    let _writing = writer(path)?;
    write(path, config)
}

/// Replaces the file atomically (see `atomic_file`: a link is followed and kept, the
/// file's permissions are kept, a new file is the owner's alone).
fn write(path: &Path, config: &Config) -> Result<(), ConfigError> {
    let failed = |source| ConfigError::Write {
        path: path.to_owned(),
        source,
    };
    let mut text = serde_json::to_string_pretty(config).map_err(|e| failed(io::Error::other(e)))?;
    text.push('\n');
    atomic_file::replace(path, text.as_bytes()).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ServerConfig;

    #[test]
    fn a_missing_file_is_an_empty_configuration() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            load(&dir.path().join("none.json")).unwrap(),
            Config::default()
        );
    }

    #[test]
    fn a_first_run_writes_its_configuration_and_a_later_run_keeps_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        let first = load_or_create(&path, Config::first_run).unwrap();
        assert!(first.servers.contains_key("demo"));
        assert_eq!(load(&path).unwrap(), first);
        let mut edited = first.clone();
        edited.servers.clear();
        save(&path, &edited).unwrap();
        let later = load_or_create(&path, Config::first_run).unwrap();
        assert!(
            later.servers.is_empty(),
            "the person's file is never replaced"
        );
    }

    #[test]
    fn a_first_run_file_is_the_owners_alone() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        load_or_create(&path, Config::first_run).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn a_saved_configuration_reads_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep/er/config.json");
        let mut config = Config::default();
        config.servers.insert(
            "demo".into(),
            ServerConfig {
                command: Some("demo".into()),
                ..ServerConfig::default()
            },
        );
        save(&path, &config).unwrap();
        assert_eq!(load(&path).unwrap(), config);
        // Nothing is left behind but the file itself.
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["config.json"]);
    }

    #[test]
    fn saves_from_many_threads_at_once_each_land_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        let configs: Vec<Config> = (0..8)
            .map(|n| {
                let mut config = Config::default();
                config.servers.insert(
                    format!("server-{n}"),
                    ServerConfig {
                        command: Some("x".repeat(4096 * (n + 1))),
                        ..ServerConfig::default()
                    },
                );
                config
            })
            .collect();
        std::thread::scope(|scope| {
            for config in &configs {
                let path = &path;
                scope.spawn(move || {
                    for _ in 0..10 {
                        save(path, config).unwrap();
                    }
                });
            }
        });
        // The file is one of the configurations whole, never a mix or a torn write.
        assert!(configs.contains(&load(&path).unwrap()));
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["config.json"], "no temporary file is left behind");
    }

    #[test]
    fn changes_from_many_threads_at_once_are_all_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        // Written by hand: kept by every change, which touches only its own server.
        fs::write(&path, r#"{"mcpServers": {}, "theme": "dark"}"#).unwrap();
        std::thread::scope(|scope| {
            for n in 0..8 {
                let path = &path;
                scope.spawn(move || {
                    update(path, |config| {
                        let server = ServerConfig {
                            command: Some(format!("server-{n}")),
                            ..ServerConfig::default()
                        };
                        config.servers.insert(format!("s{n}"), server);
                        Ok::<_, ConfigError>(())
                    })
                    .unwrap();
                });
            }
        });
        let config = load(&path).unwrap();
        assert_eq!(config.servers.len(), 8, "{:?}", config.servers.keys());
        assert_eq!(config.extra["theme"], "dark");
    }

    #[test]
    fn a_change_that_fails_or_a_broken_file_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        fs::write(&path, "{}").unwrap();
        let refused = update(&path, |config| {
            config
                .servers
                .insert("half".into(), ServerConfig::default());
            Err(ConfigError::Read {
                path: path.clone(),
                source: io::Error::other("changed my mind"),
            })
        });
        assert!(refused.is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "{}");
        fs::write(&path, "{ oops").unwrap();
        let broken = update(&path, |_| Ok::<_, ConfigError>(()));
        assert!(matches!(broken, Err(ConfigError::Invalid { .. })));
        assert_eq!(fs::read_to_string(&path).unwrap(), "{ oops");
    }

    #[test]
    fn a_write_replaces_the_file_whole_and_never_rewrites_it_in_place() {
        use std::io::Read;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        save(&path, &Config::default()).unwrap();
        let before = fs::read_to_string(&path).unwrap();
        // A reader that opened the file before the write (another process, an editor)
        // reads the whole of what was there: a write never truncates it under them.
        let mut reader = File::open(&path).unwrap();
        update(&path, |config| {
            config.settings.approval_timeout_secs = 7;
            Ok::<_, ConfigError>(())
        })
        .unwrap();
        let mut read = String::new();
        reader.read_to_string(&mut read).unwrap();
        assert_eq!(read, before);
        assert_eq!(load(&path).unwrap().settings.approval_timeout_secs, 7);
    }

    #[test]
    fn a_write_waits_for_another_process_writing_the_same_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        save(&path, &Config::default()).unwrap();
        // Another process holds the lock, as `update` does across its read and write.
        let other = File::open(dir.path()).unwrap();
        other.lock().unwrap();
        let (done, finished) = std::sync::mpsc::channel();
        let writer = {
            let path = path.clone();
            std::thread::spawn(move || {
                let written = update(&path, |config| {
                    config.settings.approval_timeout_secs = 7;
                    Ok::<_, ConfigError>(())
                });
                done.send(written.is_ok()).unwrap();
            })
        };
        assert!(
            finished
                .recv_timeout(std::time::Duration::from_millis(300))
                .is_err(),
            "the write came between another writer's read and write"
        );
        // The other writer writes, and lets go: the waiting write is made on top of it.
        let mut theirs = load(&path).unwrap();
        theirs.settings.request_timeout_secs = 9;
        write(&path, &theirs).unwrap();
        drop(other);
        writer.join().unwrap();
        assert!(finished.recv().unwrap());
        let both = load(&path).unwrap().settings;
        assert_eq!(
            (both.approval_timeout_secs, both.request_timeout_secs),
            (7, 9)
        );
    }

    #[test]
    fn a_pinned_allowance_marked_always_is_honoured_after_a_restart() {
        use crate::pins::ToolDefinition;
        use crate::policy::{Decision, Now, Policies, Scope, Verdict};

        use crate::config::ToolRule;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        // Keys in an order a server might use: the file keeps what compares equal.
        let definition = ToolDefinition {
            name: "delete".into(),
            title: None,
            description: Some("Deletes a file.".into()),
            input_schema: serde_json::json!({"type": "object", "required": ["path"],
                "properties": {"path": {"type": "string"}}}),
            annotations: Some(serde_json::json!({"destructiveHint": true})),
        };
        let mut policies = Policies::default();
        let rule = ToolRule {
            server: "files".into(),
            tool: Some("delete".into()),
            allow: true,
            agent: None,
            identity: "the server as allowed".into(),
            definition: Some(definition.clone()),
            since_ms: 1,
            reads: false,
            definitions: Vec::new(),
        };
        policies.remember(rule, Scope::Always);
        let mut config = Config::default();
        config.settings.tool_rules = policies.always().to_vec();
        save(&path, &config).unwrap();

        let restarted = Policies::new(load(&path).unwrap().settings.tool_rules);
        let now = Now {
            agent: None,
            server: "files",
            identity: "the server as allowed",
            definition: &definition,
        };
        assert_eq!(
            restarted.decide(&now, None, false),
            Verdict::Decided(Decision {
                allow: true,
                decided_by: crate::decisions::DecidedBy::Rule {
                    allow: true,
                    reach: crate::decisions::Reach::Tool,
                    scope: Scope::Always,
                },
                given: crate::decisions::Given::Rule,
            })
        );
    }

    #[test]
    fn a_broken_file_names_its_line_and_stays_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        let broken = "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\",}\n  }\n}\n";
        fs::write(&path, broken).unwrap();
        let err = load(&path).unwrap_err();
        let ConfigError::Invalid { line, .. } = &err else {
            panic!("expected an invalid file, got {err}")
        };
        assert_eq!(*line, 3);
        assert!(err.to_string().contains("(line 3, column"), "{err}");
        assert!(
            err.to_string().ends_with("the file was left as it is"),
            "{err}"
        );
        assert_eq!(fs::read_to_string(&path).unwrap(), broken);
    }

    #[test]
    fn a_wrongly_typed_entry_is_reported_too() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.json");
        fs::write(&path, r#"{"mcpServers": {"a": {"args": "not a list"}}}"#).unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(
            err.contains("invalid type: string \"not a list\", expected a sequence"),
            "{err}"
        );
    }
}
