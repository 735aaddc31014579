//! From a server's configuration to a running transport: secrets are read from the
//! keyring, `${env:NAME}` references expanded, and stdio commands found on the person's
//! login-shell PATH (a GUI launch does not inherit a terminal's).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::sync::{OnceLock, mpsc};
use std::time::Duration;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use switchboard_mcp::transport::http::{self, HttpMode, HttpServer};
use switchboard_mcp::transport::stdio::{self, StdioServer};
use switchboard_mcp::transport::{LogSink, TransportParts};

use crate::config::{EnvValue, ServerConfig, ServerSpec};
use crate::secrets::Secrets;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    #[error("{0}")]
    Config(String),
    #[error("the secret {0:?} is not in the keyring; set it again in the server's settings")]
    MissingSecret(String),
    #[error("{0}")]
    Start(String),
}

/// Starts the transport the configuration describes.
pub async fn launch(
    name: &str,
    config: &ServerConfig,
    secrets: &Secrets,
    log: LogSink,
) -> Result<TransportParts, LaunchError> {
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
            let mut server = StdioServer::new(command).args(args.iter());
            server.env = resolve_all(env, secrets)
                .await?
                .into_iter()
                .map(|(k, v)| (OsString::from(k), OsString::from(v)))
                .collect();
            if !env.contains_key("PATH")
                && let Some(path) = tokio::task::spawn_blocking(login_path).await.ok().flatten()
            {
                server.env.push(("PATH".into(), path.into()));
            }
            server.cwd = cwd.cloned();
            stdio::spawn(&server, log).map_err(|e| LaunchError::Start(e.to_string()))
        }
        ServerSpec::Http {
            url,
            headers,
            legacy_sse,
        } => {
            let mut server = HttpServer::new(url);
            server.mode = if legacy_sse {
                HttpMode::LegacySse
            } else {
                HttpMode::Auto
            };
            server.headers = resolve_all(headers, secrets).await?.into_iter().collect();
            http::connect(&server, log)
                .map(|(parts, _)| parts)
                .map_err(|e| LaunchError::Start(e.to_string()))
        }
    }
}

async fn resolve_all(
    values: &BTreeMap<String, EnvValue>,
    secrets: &Secrets,
) -> Result<Vec<(String, String)>, LaunchError> {
    let mut resolved = Vec::with_capacity(values.len());
    for (key, value) in values {
        resolved.push((key.clone(), resolve(value, secrets).await?));
    }
    Ok(resolved)
}

async fn resolve(value: &EnvValue, secrets: &Secrets) -> Result<String, LaunchError> {
    match value {
        EnvValue::Plain(text) => Ok(expand_env(text, |name| std::env::var(name).ok())),
        EnvValue::Secret { secret } => secrets
            .get(secret)
            .await
            .map_err(|e| LaunchError::Start(e.to_string()))?
            .ok_or_else(|| LaunchError::MissingSecret(secret.clone())),
    }
}

/// Replaces each `${env:NAME}` with the variable's value (empty if unset).
fn expand_env(text: &str, lookup: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${env:") {
        let Some(len) = rest[start..].find('}') else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push_str(&lookup(&rest[start + 6..start + len]).unwrap_or_default());
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out
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
    fn env_references_expand_and_the_rest_stays() {
        let lookup = |name: &str| (name == "TOKEN").then(|| "abc".to_owned());
        assert_eq!(expand_env("Bearer ${env:TOKEN}", lookup), "Bearer abc");
        assert_eq!(expand_env("${env:MISSING}-x", lookup), "-x");
        assert_eq!(
            expand_env("plain ${other} ${env:TOKEN", lookup),
            "plain ${other} ${env:TOKEN"
        );
    }

    #[tokio::test]
    async fn a_missing_secret_is_named() {
        let secrets = Secrets::new("switchboard-test-missing");
        let config = ServerConfig {
            command: Some("true".into()),
            env: [(
                "KEY".to_owned(),
                EnvValue::Secret {
                    secret: "nope".into(),
                },
            )]
            .into(),
            ..ServerConfig::default()
        };
        let Err(err) = launch(
            "s",
            &config,
            &secrets,
            switchboard_mcp::transport::discard_log(),
        )
        .await
        else {
            panic!("launch must fail without the secret");
        };
        assert_eq!(err, LaunchError::MissingSecret("nope".into()));
    }
}
