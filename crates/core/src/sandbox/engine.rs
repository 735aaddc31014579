//! Which engine builds a server's sandbox here: bubblewrap where it runs, our Landlock
//! helper where it does not, and where neither can, no sandbox at all and a reason that
//! says how to fix it (a sandboxed server never starts unconfined).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// What builds a server's sandbox .
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum SandboxEngine {
    /// Bubblewrap where it runs, Landlock where it does not.
    #[default]
    Auto,
    Bubblewrap,
    Landlock,
}

impl SandboxEngine {
    pub(crate) fn is_auto(&self) -> bool {
        *self == Self::Auto
    }
}

/// The engine that builds a server's sandbox, with its program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Engine {
    Bubblewrap(PathBuf),
    Landlock(PathBuf),
}

impl Engine {
    /// Which engine it is, as a setting names it.
    pub fn kind(&self) -> SandboxEngine {
        match self {
            Self::Bubblewrap(_) => SandboxEngine::Bubblewrap,
            Self::Landlock(_) => SandboxEngine::Landlock,
        }
    }
}

const INSTALL: &str = "install bubblewrap (apt install bubblewrap, or dnf install bubblewrap)";

/// Why no sandbox can be built here: a kind a face words in its language, with the
/// system's words (what bubblewrap or our helper said) as they came. `Display` is the
/// host's English, which says how to fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum NoSandbox {
    /// The setting asks for bubblewrap, which is not installed.
    BubblewrapMissing,
    /// The setting asks for Landlock, which cannot run here: why.
    LandlockCannot { why: String },
    /// Neither can: why bubblewrap cannot (none: it is not installed), why Landlock cannot.
    NoneCanRun {
        bubblewrap: Option<String>,
        landlock: String,
    },
}

impl std::fmt::Display for NoSandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BubblewrapMissing => write!(
                f,
                "the sandbox is set to bubblewrap, which is not installed: {INSTALL}, or let \
                 the sandbox choose its engine"
            ),
            Self::LandlockCannot { why } => {
                write!(
                    f,
                    "the sandbox is set to Landlock, which cannot run here: {why}"
                )
            }
            Self::NoneCanRun {
                bubblewrap,
                landlock,
            } => write!(
                f,
                "the server was not started, as no sandbox can run here: {}, and Landlock \
                 cannot stand in for it ({landlock}). To fix it, {INSTALL} (on Ubuntu, \
                 bubblewrap also needs an AppArmor profile that lets it make user namespaces), \
                 or turn the sandbox off for this server",
                bubblewrap
                    .as_deref()
                    .unwrap_or("bubblewrap (bwrap) is not installed")
            ),
        }
    }
}

/// The engine `wanted` names, given `bwrap` as found on the `PATH` and our helper as found
/// beside the app (or why not). Auto takes bubblewrap if it can make its namespaces here,
/// Landlock if the kernel has it.
pub fn choose(
    wanted: SandboxEngine,
    bwrap: Option<&Path>,
    helper: Result<&Path, String>,
) -> Result<Engine, NoSandbox> {
    // Why bubblewrap cannot run: none when it is not installed.
    let bubblewrap = || match bwrap {
        None => Err(None),
        Some(bwrap) => bwrap_works(bwrap)
            .map(|()| Engine::Bubblewrap(bwrap.to_owned()))
            .map_err(Some),
    };
    let landlock = || {
        let helper = helper.clone()?;
        super::landlock::works(helper).map(|()| Engine::Landlock(helper.to_owned()))
    };
    match wanted {
        SandboxEngine::Bubblewrap => bwrap
            .map(|bwrap| Engine::Bubblewrap(bwrap.to_owned()))
            .ok_or(NoSandbox::BubblewrapMissing),
        SandboxEngine::Landlock => landlock().map_err(|why| NoSandbox::LandlockCannot { why }),
        SandboxEngine::Auto => bubblewrap().or_else(|bubblewrap| {
            landlock().map_err(|landlock| NoSandbox::NoneCanRun {
                bubblewrap,
                landlock,
            })
        }),
    }
}

/// Whether `bwrap` can make its namespaces here (Ubuntu's AppArmor may refuse them), asked
/// once: `Err` says what it said.
fn bwrap_works(bwrap: &Path) -> Result<(), String> {
    static PROBED: OnceLock<Result<(), String>> = OnceLock::new();
    PROBED
        .get_or_init(|| {
            let out = Command::new(bwrap)
                .args(["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/"])
                .args(["--", "true"])
                .stdin(Stdio::null())
                .output()
                .map_err(|e| format!("bubblewrap could not run: {e}"))?;
            if out.status.success() {
                Ok(())
            } else {
                Err(format!(
                    "bubblewrap cannot make its namespaces here ({})",
                    String::from_utf8_lossy(&out.stderr).trim()
                ))
            }
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_neither_engine_nothing_is_chosen_and_the_reason_says_how_to_fix_it() {
        let why = choose(
            SandboxEngine::Auto,
            None,
            Err("switchboard-confine is not beside the app".to_owned()),
        )
        .unwrap_err()
        .to_string();
        assert!(why.contains("bubblewrap (bwrap) is not installed"), "{why}");
        assert!(why.contains("not beside the app"), "{why}");
        assert!(why.contains("apt install bubblewrap"), "{why}");
        assert!(why.contains("turn the sandbox off"), "{why}");
        let forced = choose(SandboxEngine::Bubblewrap, None, Ok(Path::new("/x")))
            .unwrap_err()
            .to_string();
        assert!(forced.contains("set to bubblewrap"), "{forced}");
    }
}
