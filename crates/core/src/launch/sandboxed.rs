//! Starting a stdio server in its sandbox (see `crate::sandbox`): the engine that can build
//! it here, what it sees, and for a package `npx` or `uvx` runs, the package fetched first
//! (with the network, seeing nothing of the person's) into a cache it keeps.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use switchboard_mcp::transport::stdio::{self, StdioServer};
use switchboard_mcp::transport::{LogLine, LogSink, TransportParts};
use tokio::io::{AsyncBufReadExt, BufReader};

use super::{LaunchError, bundled, on_path, spawn_error};
use crate::config::{SandboxEngine, SandboxSetting};
use crate::sandbox::landlock::{self, Private};
use crate::sandbox::package::Package;
use crate::sandbox::{self, Engine, Shared, View, bwrap};
use crate::server_events::Reason;

/// The longest a package's fetch may take (a large package over a slow line).
const FETCH_LIMIT: Duration = Duration::from_secs(300);

/// A stdio server to start in the sandbox: its name (naming the folders kept for it), its
/// program, arguments, the folders shared with it, and its sandbox setting.
pub struct Sandboxed<'a> {
    pub name: &'a str,
    pub program: &'a Path,
    pub args: &'a [String],
    pub roots: &'a Shared,
    pub setting: SandboxSetting,
}

impl Sandboxed<'_> {
    /// Starts the server in its sandbox with the configured variables and the base ones
    /// alone (`login`, the login shell's `PATH`, as its `PATH` if given), the program found
    /// on the `PATH` it will have there.
    pub async fn spawn(
        &self,
        variables: Vec<(OsString, OsString)>,
        login: Option<OsString>,
        cwd: Option<&Path>,
        log: LogSink,
    ) -> Result<TransportParts, LaunchError> {
        let mut env = sandbox::environment(&variables, login.as_ref(), self.setting.network);
        let path = env
            .iter()
            .find(|(key, _)| key == "PATH")
            .map(|(_, path)| path.clone())
            .unwrap_or_default();
        let engine = engine(self.setting.engine).await?;
        let (program, view) = self.view(&path, cwd)?;
        if let (Some(package), Some(cache)) =
            (Package::of(&program, self.args), view.caches.first())
        {
            std::fs::create_dir_all(cache).map_err(|e| {
                LaunchError::Start(Reason::CouldNotMake {
                    folder: cache.display().to_string(),
                    detail: e.to_string(),
                })
            })?;
            let fetch_view = View {
                programs: view.programs.clone(),
                roots: Vec::new(),
                read_only_roots: Vec::new(),
                caches: vec![cache.clone()],
                network: true,
            };
            // The fetch runs the package's install scripts: of the configured variables it
            // gets only its `PATH` and the runner's own (a private registry's token), none of
            // the server's secrets.
            let runners_variables: Vec<_> = variables
                .iter()
                .filter(|(key, _)| {
                    let key = key.to_string_lossy();
                    key == "PATH" || Package::is_runners_variable(&key)
                })
                .cloned()
                .collect();
            let mut fetch_env = sandbox::environment(&runners_variables, login.as_ref(), true);
            fetch_env.extend(package.environment(cache, false));
            let fetch = self.command(
                &engine,
                &fetch_view,
                &program,
                &package.fetch_args(),
                fetch_env,
                cwd,
            )?;
            run_to_end(&fetch, &log).await;
            env.extend(package.environment(cache, true));
        }
        let server = self.command(&engine, &view, &program, self.args, env, cwd)?;
        stdio::spawn(&server, log).map_err(spawn_error)
    }

    /// Removes what the sandbox kept for the server `name` (its private folders), once it
    /// will not start again.
    pub fn forget(name: &str) {
        let _ = std::fs::remove_dir_all(kept_folder("private").join(file_name(name)));
    }

    /// The program as found on `path`, and what it sees in the sandbox.
    pub(super) fn view(
        &self,
        path: &std::ffi::OsStr,
        cwd: Option<&Path>,
    ) -> Result<(PathBuf, View), LaunchError> {
        let program = on_path(self.program, path).ok_or_else(|| {
            LaunchError::Unstartable(Reason::NotOnPath {
                program: self.program.display().to_string(),
            })
        })?;
        let mut view = View::of(&program, self.args, self.roots, self.setting.network);
        // The folder the person said it runs in is part of how it is launched, as its
        // arguments' folders are: seen, not written.
        view.add_program_folder(cwd);
        if let Some(package) = Package::of(&program, self.args) {
            view.caches.push(package.cache_in(&kept_folder("packages")));
        }
        Ok((program, view))
    }

    /// `program args` in `view`, built by `engine`, with `env` alone.
    fn command(
        &self,
        engine: &Engine,
        view: &View,
        program: &Path,
        args: &[String],
        mut env: Vec<(OsString, OsString)>,
        cwd: Option<&Path>,
    ) -> Result<StdioServer, LaunchError> {
        let mut server = match engine {
            Engine::Bubblewrap(bwrap) => {
                StdioServer::new(bwrap).args(bwrap::args(view, program, args, cwd))
            }
            Engine::Landlock(helper) => {
                let folder = kept_folder("private").join(file_name(self.name));
                let private = Private::fresh(&folder).map_err(|e| {
                    LaunchError::Start(Reason::CouldNotMake {
                        folder: folder.display().to_string(),
                        detail: e.to_string(),
                    })
                })?;
                let private_env = private.environment();
                env.retain(|(key, _)| !private_env.iter().any(|(k, _)| k == key));
                env.extend(private_env);
                let mut server =
                    StdioServer::new(helper).args(landlock::args(view, &private, program, args));
                server.cwd = cwd.map(Path::to_owned);
                server
            }
        };
        server.env = env;
        server.clear_env = true;
        Ok(server)
    }
}

/// The engine `wanted` names that can run here: `bwrap` found on the app's `PATH`, our
/// helper beside the app (probing them may wait on a process: not on a runtime worker).
pub async fn engine(wanted: SandboxEngine) -> Result<Engine, LaunchError> {
    tokio::task::spawn_blocking(move || {
        let bwrap = on_path(
            Path::new(bwrap::PROGRAM),
            &std::env::var_os("PATH").unwrap_or_default(),
        );
        let helper = bundled(
            landlock::HELPER,
            &std::env::current_exe().unwrap_or_default(),
        )
        .map_err(|e| e.to_string());
        sandbox::choose(
            wanted,
            bwrap.as_deref(),
            helper.as_deref().map_err(Clone::clone),
        )
    })
    .await
    .map_err(|e| LaunchError::Start(Reason::said(e.to_string())))?
    .map_err(LaunchError::NoSandbox)
}

/// A folder of the sandbox's kept in the person's cache: `packages` (what `npx` or `uvx`
/// fetched), `private` (the homes of servers confined by Landlock).
fn kept_folder(what: &str) -> PathBuf {
    dirs::cache_dir()
        .unwrap_or_else(std::env::temp_dir)
        .join("switchboard/sandbox")
        .join(what)
}

/// A server's name as one file name.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Runs `step` to its end (or `FETCH_LIMIT`), its errors in the server's log: a failure
/// is not the server's, which may start from what the cache holds.
async fn run_to_end(step: &StdioServer, log: &LogSink) {
    let mut command = tokio::process::Command::new(&step.program);
    command
        .args(&step.args)
        .env_clear()
        .envs(step.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(cwd) = &step.cwd {
        command.current_dir(cwd);
    }
    let Ok(mut child) = command.spawn() else {
        return;
    };
    let lines = async {
        if let Some(stderr) = child.stderr.take() {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                log(LogLine::Stderr(line));
            }
        }
        let _ = child.wait().await;
    };
    let _ = tokio::time::timeout(FETCH_LIMIT, lines).await;
}
