//! The sandbox where bubblewrap cannot run: our helper `switchboard-confine` restricts itself
//! with Landlock to the same allow-list (and, without the network, a seccomp filter denying
//! sockets other than local ones) and then becomes the server. Landlock cannot mount an empty
//! home or a private `/tmp` over the real ones, so the server gets folders of its own for
//! them, emptied at each start, and is told of them by `HOME` and `TMPDIR`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::{Args, ETC, SYSTEM, View};

/// Our helper, installed beside the app.
pub const HELPER: &str = "switchboard-confine";

/// What programs read of devices and of `/proc`: the sources of nothing and randomness,
/// the server's own process (the helper's, which it becomes) and the machine's processors
/// and memory (Node counts processors there). Never all of `/proc`: it shows the person's
/// other processes' environments.
const DEVICES_READ: &[&str] = &[
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/proc/self",
    "/proc/stat",
    "/proc/cpuinfo",
    "/proc/meminfo",
];
const DEVICES_WRITE: &[&str] = &["/dev/null", "/dev/full"];

/// The home and `/tmp` a confined server has instead of the person's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Private {
    pub home: PathBuf,
    pub tmp: PathBuf,
}

impl Private {
    /// Empty `home` and `tmp` folders in `folder`, made anew (what a server left there at its
    /// last run is gone, as it would be from bubblewrap's).
    pub fn fresh(folder: &Path) -> std::io::Result<Self> {
        use std::os::unix::fs::DirBuilderExt;
        match std::fs::remove_dir_all(folder) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        let private = Self {
            home: folder.join("home"),
            tmp: folder.join("tmp"),
        };
        for made in [&private.home, &private.tmp] {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(made)?;
        }
        Ok(private)
    }

    /// `HOME` and `TMPDIR`, pointing at these folders.
    pub fn environment(&self) -> [(OsString, OsString); 2] {
        [
            ("HOME".into(), self.home.clone().into()),
            ("TMPDIR".into(), self.tmp.clone().into()),
        ]
    }
}

/// The helper's arguments that run `program args` confined to `view`.
pub fn args(view: &View, private: &Private, program: &Path, args: &[String]) -> Vec<OsString> {
    let mut out = Args::default();
    let read = SYSTEM.iter().chain(ETC).chain(DEVICES_READ).map(Path::new);
    let programs = view.programs.iter().chain(&view.read_only_roots);
    for path in read.chain(programs.map(PathBuf::as_path)) {
        out.flag("--read");
        out.path(path);
    }
    let write = DEVICES_WRITE.iter().map(Path::new).chain(
        [&view.roots, &view.caches]
            .into_iter()
            .flatten()
            .map(PathBuf::as_path),
    );
    for path in write.chain([private.home.as_path(), private.tmp.as_path()]) {
        out.flag("--write");
        out.path(path);
    }
    if !view.network {
        out.flag("--no-network");
    }
    out.command(program, args)
}

/// Whether the helper at `helper` can confine a server on this kernel, asked once: `Err`
/// says why not.
pub fn works(helper: &Path) -> Result<(), String> {
    static PROBED: OnceLock<Result<(), String>> = OnceLock::new();
    PROBED
        .get_or_init(|| {
            let out = Command::new(helper)
                .arg("--probe")
                .output()
                .map_err(|e| format!("{} could not run: {e}", helper.display()))?;
            if out.status.success() {
                Ok(())
            } else {
                Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
            }
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::tests::{find, strings};

    #[test]
    fn the_view_is_read_and_roots_caches_and_private_folders_written_with_no_network_unless_allowed()
     {
        let view = View {
            programs: vec![PathBuf::from("/opt/server")],
            roots: vec![PathBuf::from("/home/someone/project")],
            read_only_roots: vec![PathBuf::from("/home/someone/papers")],
            caches: vec![PathBuf::from("/home/someone/.cache/npx/a")],
            network: false,
        };
        let private = Private {
            home: PathBuf::from("/p/home"),
            tmp: PathBuf::from("/p/tmp"),
        };
        let args = strings(&super::args(
            &view,
            &private,
            Path::new("/opt/server/run"),
            &["x".into()],
        ));
        assert!(find(&args, "--write", &["/home/someone/papers"]).is_none());
        for read in [
            "/usr",
            "/etc/ld.so.cache",
            "/opt/server",
            "/dev/urandom",
            "/home/someone/papers",
        ] {
            assert!(
                find(&args, "--read", &[read]).is_some(),
                "{read} in {args:?}"
            );
        }
        for written in [
            "/home/someone/project",
            "/home/someone/.cache/npx/a",
            "/p/home",
            "/p/tmp",
            "/dev/null",
        ] {
            assert!(
                find(&args, "--write", &[written]).is_some(),
                "{written} in {args:?}"
            );
        }
        assert!(args.contains(&"--no-network".to_owned()));
        assert_eq!(&args[args.len() - 3..], ["--", "/opt/server/run", "x"]);
        let online = View {
            network: true,
            ..view
        };
        let args = strings(&super::args(&online, &private, Path::new("/s"), &[]));
        assert!(!args.contains(&"--no-network".to_owned()));
    }

    #[test]
    fn private_folders_are_made_empty_at_each_start() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("server");
        let private = Private::fresh(&folder).unwrap();
        std::fs::write(private.home.join(".history"), "left").unwrap();
        let again = Private::fresh(&folder).unwrap();
        assert_eq!(again, private);
        assert!(!again.home.join(".history").exists());
        assert!(again.tmp.is_dir());
    }
}
