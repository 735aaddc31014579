//! From a server's configuration to a running transport: secrets are read from the
//! keyring (the server's own only), `${env:NAME}` references expanded, and stdio commands
//! found on the person's login-shell PATH (a GUI launch does not inherit a terminal's); an
//! HTTP server gets an authorization client with its grant from the keyring.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::{OnceLock, mpsc};
use std::time::Duration;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use switchboard_mcp::transport::http::{self, HttpServer};
use switchboard_mcp::transport::stdio::{self, StdioServer};
use switchboard_mcp::transport::{LogSink, TransportParts};

use crate::config::{
    DEMO_SERVER, EnvValue, Place, ServerConfig, ServerSpec, placeholders, secret_name,
};
use crate::masking;
use crate::sandbox;
use crate::secrets::Secrets;
use crate::server_events::Reason;
use crate::sign_in::SignIns;
use crate::traffic::{ShownHeader, shown_header};

mod sandboxed;
pub use sandboxed::{Sandboxed, engine as sandbox_engine};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    #[error("{0}")]
    Config(String),
    #[error("the secret {0:?} is not in the keyring; set it again in the server's settings")]
    MissingSecret(String),
    /// A configuration names a secret that is not the one of the slot it fills, such as
    /// another server's: it is never read.
    #[error(
        "{server:?} may not use the secret {secret:?}: its {place} {key:?} may hold only its own \
         secret {own:?}; enter the value again in the server's settings",
        place = place.as_str(),
        own = secret_name(server, *place, key)
    )]
    ForeignSecret {
        server: String,
        place: Place,
        key: String,
        secret: String,
    },
    #[error("{0}")]
    Start(Reason),
    /// The program cannot be started as configured (not there, not runnable): trying
    /// again would fail the same way.
    #[error("{0}")]
    Unstartable(Reason),
    /// No sandbox can be built here for a server that must run in one.
    #[error("{0}")]
    NoSandbox(sandbox::NoSandbox),
    /// The system refused to start the program; `lasting` if trying again would fail the
    /// same way (not there, not runnable).
    #[error("could not start {program:?}: {detail}")]
    Spawn {
        program: String,
        detail: String,
        lasting: bool,
    },
}

impl LaunchError {
    /// Whether trying again later may succeed (a keyring not yet unlocked, a network
    /// down); a configuration that is wrong, or a program that is not there, will not
    /// mend until the person changes something.
    pub fn may_heal(&self) -> bool {
        matches!(self, Self::Start(_) | Self::Spawn { lasting: false, .. })
    }

    /// Why the server did not start, as its state says it.
    pub fn reason(&self) -> Reason {
        match self {
            Self::Spawn {
                program, detail, ..
            } => Reason::NotStarted {
                program: program.clone(),
                detail: detail.clone(),
            },
            Self::MissingSecret(secret) => Reason::MissingSecret {
                secret: secret.clone(),
            },
            Self::NoSandbox(why) => Reason::NoSandbox { why: why.clone() },
            Self::Start(reason) | Self::Unstartable(reason) => reason.clone(),
            other => Reason::said(other.to_string()),
        }
    }
}

/// A started transport, and what a view of its traffic must hide or may show.
pub struct Launched {
    pub transport: TransportParts,
    /// The values of its secrets (from the keyring, or under a name that says secret).
    pub secrets: Vec<String>,
    /// The headers sent with every HTTP request, credentials masked.
    pub headers: Vec<ShownHeader>,
}

/// One `env` or `headers` value, resolved.
struct Resolved {
    key: String,
    value: String,
    secret: bool,
}

/// Starts the transport the configuration describes; a sandboxed server sees `roots`, the
/// folders shared with it.
pub async fn launch(
    name: &str,
    config: &ServerConfig,
    secrets: &Secrets,
    sign_ins: &SignIns,
    roots: &sandbox::Shared,
    log: LogSink,
) -> Result<Launched, LaunchError> {
    let (transport, resolved, http) = start(name, config, secrets, sign_ins, roots, log).await?;
    let headers = if http {
        resolved
            .iter()
            .map(|r| {
                // A secret under a name that says nothing of it: none of it shows.
                let value = if r.secret { "…" } else { r.value.as_str() };
                if r.secret && masking::is_credential_header(&r.key) {
                    shown_header(&r.key, &r.value)
                } else {
                    shown_header(&r.key, value)
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    Ok(Launched {
        transport,
        secrets: resolved
            .into_iter()
            .filter(|r| r.secret)
            .map(|r| r.value)
            .collect(),
        headers,
    })
}

/// Starts the transport, with the `env` or `headers` values it was given and whether it
/// speaks HTTP.
async fn start(
    name: &str,
    config: &ServerConfig,
    secrets: &Secrets,
    sign_ins: &SignIns,
    roots: &sandbox::Shared,
    log: LogSink,
) -> Result<(TransportParts, Vec<Resolved>, bool), LaunchError> {
    match config
        .spec(name)
        .map_err(|e| LaunchError::Config(e.to_string()))?
    {
        ServerSpec::Stdio {
            command,
            args,
            env,
            cwd,
        } => {
            let program = program_of(command)?;
            let resolved = resolve_all(name, Place::Env, env, secrets).await?;
            let variables: Vec<(OsString, OsString)> = resolved
                .iter()
                .map(|r| (OsString::from(&r.key), OsString::from(&r.value)))
                .collect();
            let login = if env.contains_key("PATH") {
                None
            } else {
                tokio::task::spawn_blocking(login_path)
                    .await
                    .ok()
                    .flatten()
                    .map(OsString::from)
            };
            let transport = match config.sandbox {
                None => {
                    let mut server = StdioServer::new(program).args(args.iter());
                    server.env = variables;
                    server.env.extend(login.map(|path| ("PATH".into(), path)));
                    server.cwd = cwd.cloned();
                    stdio::spawn(&server, log).map_err(spawn_error)?
                }
                Some(setting) => {
                    Sandboxed {
                        name,
                        program: &program,
                        args,
                        roots,
                        setting,
                    }
                    .spawn(variables, login, cwd.map(PathBuf::as_path), log)
                    .await?
                }
            };
            Ok((transport, resolved, false))
        }
        ServerSpec::Http {
            url,
            headers,
            mode,
            oauth,
        } => {
            let authorization = sign_ins
                .authorization(name, url, oauth, secrets)
                .await
                .map_err(|e| LaunchError::Start(Reason::said(e)))?;
            let mut server = HttpServer::new(url).authorization(authorization);
            server.mode = mode;
            server.read_timeout = read_timeout(config, server.read_timeout);
            let resolved = resolve_all(name, Place::Header, headers, secrets).await?;
            server.headers = resolved
                .iter()
                .map(|r| (r.key.clone(), r.value.clone()))
                .collect();
            let (transport, _) =
                http::connect(&server, log).map_err(|e| LaunchError::Start((&e).into()))?;
            Ok((transport, resolved, true))
        }
    }
}

/// A server that could not be started: lasting if trying again would fail the same way.
fn spawn_error(e: stdio::SpawnError) -> LaunchError {
    LaunchError::Spawn {
        program: e.program.to_string_lossy().into_owned(),
        detail: e.source.to_string(),
        lasting: matches!(
            e.source.kind(),
            ErrorKind::NotFound | ErrorKind::PermissionDenied
        ),
    }
}

/// How long a request answered with one JSON body may take to arrive: as long as any
/// request of the server may (its `maxRequestSecs`), and never less than `least`.
fn read_timeout(config: &ServerConfig, least: std::time::Duration) -> std::time::Duration {
    let longest = config.max_request_secs.map(std::time::Duration::from_secs);
    least.max(longest.unwrap_or(switchboard_mcp::connection::DEFAULT_MAX_TOTAL))
}

async fn resolve_all(
    server: &str,
    place: Place,
    values: &BTreeMap<String, EnvValue>,
    secrets: &Secrets,
) -> Result<Vec<Resolved>, LaunchError> {
    let mut resolved = Vec::with_capacity(values.len());
    for (key, value) in values {
        let (value, secret) = match value {
            EnvValue::Plain(text) => (
                expand_env(text, |name| std::env::var(name).ok()),
                masking::is_secret(key)
                    || (place == Place::Header && masking::is_credential_header(key)),
            ),
            EnvValue::Secret { secret } => {
                (own_secret(server, place, key, secret, secrets).await?, true)
            }
        };
        resolved.push(Resolved {
            key: key.clone(),
            value,
            secret,
        });
    }
    Ok(resolved)
}

/// The secret's value, if it is the one that belongs at `key` of `server`.
async fn own_secret(
    server: &str,
    place: Place,
    key: &str,
    secret: &str,
    secrets: &Secrets,
) -> Result<String, LaunchError> {
    if secret != secret_name(server, place, key) {
        return Err(LaunchError::ForeignSecret {
            server: server.to_owned(),
            place,
            key: key.to_owned(),
            secret: secret.to_owned(),
        });
    }
    secrets
        .get(secret)
        .await
        .map_err(|e| LaunchError::Start(Reason::said(e.to_string())))?
        .ok_or_else(|| LaunchError::MissingSecret(secret.to_owned()))
}

/// What the local server `name` would see in the sandbox now, with these folders shared
/// with it and the network as its entry says (none without a sandbox setting).
pub async fn sandbox_view(
    name: &str,
    config: &ServerConfig,
    roots: &sandbox::Shared,
) -> Result<sandbox::View, LaunchError> {
    let ServerSpec::Stdio {
        command,
        args,
        env,
        cwd,
    } = config
        .spec(name)
        .map_err(|e| LaunchError::Config(e.to_string()))?
    else {
        return Err(LaunchError::Config(format!(
            "{name} is reached over HTTP: only a local server runs in a sandbox"
        )));
    };
    let program = program_of(command)?;
    let path = match env.get("PATH") {
        Some(EnvValue::Plain(path)) => OsString::from(path),
        _ => tokio::task::spawn_blocking(login_path)
            .await
            .ok()
            .flatten()
            .map_or_else(
                || std::env::var_os("PATH").unwrap_or_default(),
                OsString::from,
            ),
    };
    let sandboxed = Sandboxed {
        name,
        program: &program,
        args,
        roots,
        setting: config.sandbox.unwrap_or_default(),
    };
    Ok(sandboxed.view(&path, cwd.map(PathBuf::as_path))?.1)
}

/// The program a stdio server's `command` names: the bundled demo server is found beside
/// the app.
fn program_of(command: &str) -> Result<PathBuf, LaunchError> {
    match command {
        DEMO_SERVER => bundled(DEMO_SERVER, &std::env::current_exe().unwrap_or_default()),
        other => Ok(PathBuf::from(other)),
    }
}

/// `program` as the file it names: itself if it names a folder too, else the first of the
/// `PATH`'s folders that holds it as an executable file.
fn on_path(program: &Path, path: &std::ffi::OsStr) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.components().count() > 1 {
        let absolute = std::path::absolute(program).ok()?;
        return runnable(&absolute).then_some(absolute);
    }
    std::env::split_paths(path)
        .map(|folder| folder.join(program))
        .find(|candidate| candidate.is_absolute() && runnable(candidate))
}

/// A program installed beside `app` (the running app), as found now: the app may have
/// moved, or run from a mount made anew at each start. One in a folder others can write
/// to, or writable by others itself, is refused: anyone could have put it there.
pub(crate) fn bundled(program: &str, app: &Path) -> Result<PathBuf, LaunchError> {
    use std::os::unix::fs::PermissionsExt;
    let mut dir = app.parent().unwrap_or(Path::new("/"));
    // A test build of the app runs from cargo's `deps`, its programs one folder up.
    if dir.ends_with("deps") && !dir.join(program).is_file() {
        dir = dir.parent().unwrap_or(dir);
    }
    let path = dir.join(program);
    let writable_by_others =
        |path: &Path| std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o002 != 0);
    if !path.is_file() {
        return Err(LaunchError::Unstartable(Reason::BundledMissing {
            program: program.to_owned(),
            folder: dir.display().to_string(),
        }));
    }
    if writable_by_others(dir) || writable_by_others(&path) {
        return Err(LaunchError::Unstartable(Reason::BundledWritable {
            program: program.to_owned(),
            folder: dir.display().to_string(),
        }));
    }
    Ok(path)
}

/// Replaces each `${env:NAME}` with the variable's value (empty if unset).
fn expand_env(text: &str, lookup: impl Fn(&str) -> Option<String>) -> String {
    placeholders::replace(text, placeholders::Kind::Env, |name| {
        lookup(name).unwrap_or_default()
    })
}

/// The PATH of the person's login shell, read once (commands such as `npx` often live
/// in folders only a login shell adds). It waits for a shell: call it on a blocking thread.
fn login_path() -> Option<String> {
    static PATH: OnceLock<Option<String>> = OnceLock::new();
    PATH.get_or_init(|| {
        let shell = std::env::var("SHELL").ok().filter(|s| !s.is_empty())?;
        let child = std::process::Command::new(shell)
            .args(["-lc", "printf '%s' \"$PATH\""])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .ok()?;
        let pid = Pid::from_raw(i32::try_from(child.id()).ok()?);
        let (done, output) = mpsc::channel();
        std::thread::spawn(move || done.send(child.wait_with_output()));
        match output.recv_timeout(Duration::from_secs(3)) {
            Ok(output) => {
                let path = String::from_utf8(output.ok()?.stdout).ok()?;
                (!path.is_empty()).then_some(path)
            }
            // A login script that hangs must not hold up every server.
            Err(_) => {
                let _ = kill(pid, Signal::SIGKILL);
                None
            }
        }
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_json_answer_may_take_as_long_as_the_servers_longest_request() {
        use std::time::Duration;
        let five_minutes = Duration::from_secs(300);
        let default = ServerConfig::default();
        assert_eq!(
            read_timeout(&default, five_minutes),
            switchboard_mcp::connection::DEFAULT_MAX_TOTAL
        );
        let long = ServerConfig {
            max_request_secs: Some(3600),
            ..ServerConfig::default()
        };
        assert_eq!(read_timeout(&long, five_minutes), Duration::from_secs(3600));
        let short = ServerConfig {
            max_request_secs: Some(10),
            ..ServerConfig::default()
        };
        assert_eq!(read_timeout(&short, five_minutes), five_minutes);
    }

    #[test]
    fn the_bundled_demo_server_is_found_beside_the_app_and_nowhere_anyone_may_write() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let app = dir.path().join("switchboard");
        assert!(
            matches!(bundled("demo", &app), Err(LaunchError::Unstartable(Reason::BundledMissing { program, .. })) if program == "demo")
        );
        let demo = dir.path().join("demo");
        std::fs::write(&demo, "").unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(bundled("demo", &app), Ok(demo.clone()));
        for (folder, file) in [(0o777, 0o755), (0o755, 0o666)] {
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(folder)).unwrap();
            std::fs::set_permissions(&demo, std::fs::Permissions::from_mode(file)).unwrap();
            let refused = bundled("demo", &app);
            assert!(
                matches!(
                    &refused,
                    Err(LaunchError::Unstartable(Reason::BundledWritable { .. }))
                ),
                "{folder:o}/{file:o}: {refused:?}"
            );
        }
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn env_references_expand_and_the_rest_stays() {
        let lookup = |name: &str| (name == "TOKEN").then(|| "abc".to_owned());
        assert_eq!(expand_env("Bearer ${env:TOKEN}", lookup), "Bearer abc");
        assert_eq!(expand_env("${env:MISSING}-x", lookup), "-x");
        assert_eq!(
            expand_env("plain ${other} ${env:TOKEN", lookup),
            "plain ${other} ${env:TOKEN"
        );
    }

    async fn launch_with_secret(secret: &str) -> LaunchError {
        let secrets = Secrets::new("switchboard-test-missing");
        let config = ServerConfig {
            command: Some("true".into()),
            env: [(
                "KEY".to_owned(),
                EnvValue::Secret {
                    secret: secret.into(),
                },
            )]
            .into(),
            ..ServerConfig::default()
        };
        match launch(
            "s",
            &config,
            &secrets,
            &SignIns::default(),
            &sandbox::Shared::default(),
            switchboard_mcp::transport::discard_log(),
        )
        .await
        {
            Ok(_) => panic!("launch must fail without the secret"),
            Err(err) => err,
        }
    }

    #[tokio::test]
    async fn a_missing_secret_is_named() {
        assert_eq!(
            launch_with_secret("s/env/KEY").await,
            LaunchError::MissingSecret("s/env/KEY".into())
        );
    }

    #[tokio::test]
    async fn another_slots_secret_is_refused_before_the_keyring_is_asked() {
        for other in ["github/env/KEY", "s/env/OTHER", "s/header/KEY", "token"] {
            let err = launch_with_secret(other).await;
            assert_eq!(
                err.to_string(),
                format!(
                    "\"s\" may not use the secret {other:?}: its env \"KEY\" may hold only its own \
                     secret \"s/env/KEY\"; enter the value again in the server's settings"
                )
            );
        }
    }
}
