//! The sandbox built by bubblewrap: a view of the file system made from nothing in
//! namespaces of the server's own, the network's included unless it is allowed. `bwrap`
//! rather than namespaces set up by hand: it gets the ordering of mounts, `/proc`, `/dev`
//! and the user namespace right.

use std::ffi::OsString;
use std::path::Path;

use super::{Args, ETC, SYSTEM, View, home};

/// The program that builds the sandbox.
pub const PROGRAM: &str = "bwrap";

/// The arguments of `bwrap` that run `program args` in `view`, in `cwd` if given. The
/// environment is not among them (an argument list is readable by every process of the
/// person): `bwrap` passes its own on, so it is started with the server's alone.
pub fn args(view: &View, program: &Path, args: &[String], cwd: Option<&Path>) -> Vec<OsString> {
    let mut out = Args::default();
    out.flags(&["--die-with-parent", "--new-session", "--unshare-all"]);
    if view.network {
        out.flags(&["--share-net"]);
    }
    out.flags(&["--cap-drop", "ALL"]);
    for top in SYSTEM {
        let path = Path::new(top);
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                if let Ok(target) = std::fs::read_link(path) {
                    out.pair("--symlink", target.as_os_str(), path);
                }
            }
            Ok(_) => out.pair("--ro-bind", path, path),
            Err(_) => {}
        }
    }
    for file in ETC {
        out.pair("--ro-bind-try", file, file);
    }
    out.flags(&["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]);
    if let Some(home) = home() {
        out.flag("--tmpfs");
        out.path(&home);
    }
    for folder in &view.programs {
        out.pair("--ro-bind", folder, folder);
    }
    // After the empty home: a root or a cache in the home shows through it.
    for folder in view.roots.iter().chain(&view.caches) {
        out.pair("--bind", folder, folder);
    }
    for folder in &view.read_only_roots {
        out.pair("--ro-bind", folder, folder);
    }
    if let Some(cwd) = cwd {
        out.flag("--chdir");
        out.path(cwd);
    }
    out.command(program, args)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::sandbox::tests::{find, strings};

    #[test]
    fn roots_and_caches_are_bound_writable_after_the_empty_home_and_the_network_is_off_unless_allowed()
     {
        let root = PathBuf::from("/home/someone/project");
        let view = View {
            programs: vec![PathBuf::from("/opt/server")],
            roots: vec![root.clone()],
            read_only_roots: vec![PathBuf::from("/home/someone/papers")],
            caches: vec![PathBuf::from(
                "/home/someone/.cache/switchboard/sandbox/npx/a",
            )],
            network: false,
        };
        let args = strings(&super::args(
            &view,
            Path::new("/opt/server/run"),
            &["x".into()],
            None,
        ));
        let home = home().unwrap().display().to_string();
        let tmpfs_home = find(&args, "--tmpfs", &[&home]).expect("an empty home");
        let bound = find(
            &args,
            "--bind",
            &["/home/someone/project", "/home/someone/project"],
        )
        .expect("the root, writable");
        assert!(
            tmpfs_home < bound,
            "the root must be bound over the empty home"
        );
        let cache = "/home/someone/.cache/switchboard/sandbox/npx/a";
        assert!(find(&args, "--bind", &[cache, cache]).is_some_and(|at| at > tmpfs_home));
        assert!(find(&args, "--ro-bind", &["/opt/server", "/opt/server"]).is_some());
        let papers = "/home/someone/papers";
        assert!(
            find(&args, "--ro-bind", &[papers, papers]).is_some_and(|at| at > tmpfs_home),
            "a folder shared read-only, over the empty home: {args:?}"
        );
        assert!(find(&args, "--bind", &[papers, papers]).is_none());
        assert!(args.contains(&"--unshare-all".to_owned()));
        assert!(!args.contains(&"--share-net".to_owned()));
        assert_eq!(&args[args.len() - 3..], ["--", "/opt/server/run", "x"]);

        let online = View {
            network: true,
            ..view
        };
        let args = strings(&super::args(
            &online,
            Path::new("/opt/server/run"),
            &[],
            None,
        ));
        assert!(args.contains(&"--share-net".to_owned()));
    }
}
