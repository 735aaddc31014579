//! The sandbox a local server runs in. What it sees is an allow-list: the system's programs
//! and libraries and the few `/etc` files programs read, read-only; the server's own program
//! and package folders, read-only; each folder the person shared with it (its roots),
//! read-write; a private `/tmp` and an empty home. Its network is none unless the person
//! allows the host's.
//!
//! Two engines build it. Bubblewrap (`bwrap`, see `bwrap`) builds the server a view of the
//! file system from nothing, in namespaces of its own: it is the tool Flatpak and others run
//! every sandboxed program through, packaged everywhere. Where it cannot run (not installed,
//! or user namespaces refused, as Ubuntu's AppArmor does), Landlock and a seccomp filter
//! (see `landlock`), applied by a small helper of ours before it becomes the server, deny
//! what is not on the same list. Nothing here approves anything: a sandboxed server's calls
//! pass the gate as any other's.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

pub mod bwrap;
mod engine;
pub mod landlock;
pub mod package;

pub use engine::{Engine, NoSandbox, SandboxEngine, choose};

/// Files and folders under `/etc` that programs read to run at all: the dynamic linker's
/// cache, the alternatives Debian's commands are links into, certificates, name
/// resolution, users' names, time zone, MIME types. Nothing of the person's.
pub(crate) const ETC: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/pki",
    "/etc/crypto-policies",
    "/etc/resolv.conf",
    "/etc/hosts",
    "/etc/host.conf",
    "/etc/gai.conf",
    "/etc/nsswitch.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/localtime",
    "/etc/timezone",
    "/etc/mime.types",
];

/// The system's top folders: links into `/usr` on a merged system, read-only folders of
/// their own otherwise.
pub(crate) const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// The variables every server gets besides those its configuration names.
const BASE_ENV: &[&str] = &["PATH", "LANG", "LC_ALL", "TERM"];

/// How this machine reaches the network (a proxy, the certificates of one that inspects
/// TLS), given to a server that has the network, and to a package's fetch, as the host has
/// them: without them a server behind a proxy reaches nothing.
const NETWORK_ENV: &[&str] = &[
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
];

/// The folders shared with a server, as its sandbox binds them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shared {
    /// Read and written.
    pub written: Vec<PathBuf>,
    /// Read only, as the person chose.
    pub read: Vec<PathBuf>,
}

/// What a sandboxed server may see and whether it has the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct View {
    /// Its program and package folders, read-only.
    pub programs: Vec<PathBuf>,
    /// The folders the person shared with it, read-write.
    pub roots: Vec<PathBuf>,
    /// The folders the person shared with it read-only.
    pub read_only_roots: Vec<PathBuf>,
    /// Folders it keeps its packages in (see `package`), read-write.
    pub caches: Vec<PathBuf>,
    /// Whether it shares the host's network.
    pub network: bool,
}

impl View {
    /// The view of a server started as `program args` (the program as found on the `PATH`)
    /// with these roots: the program's folder (and the installation it belongs to, for a
    /// program in a `bin` folder), and the folder of each argument that names an existing
    /// file, or the folder it names.
    pub fn of(program: &Path, args: &[String], shared: &Shared, network: bool) -> Self {
        let home = home();
        let mut view = Self {
            programs: Vec::new(),
            roots: shared.written.clone(),
            read_only_roots: shared.read.clone(),
            caches: Vec::new(),
            network,
        };
        // As named (a virtual environment's `bin/python` is a link, and Python finds the
        // environment from the link's place) and as it resolves.
        let resolved = std::fs::canonicalize(program).ok();
        for program in std::iter::once(program.to_owned()).chain(resolved) {
            if let Some(folder) = program.parent() {
                view.add_program_folder(Some(&installation(folder, home.as_deref())));
            }
            view.add_packages(&program);
        }
        for arg in args {
            let path = Path::new(arg);
            if !path.is_absolute() || !path.exists() {
                continue;
            }
            view.add_program_folder(if path.is_dir() {
                Some(path)
            } else {
                path.parent()
            });
            view.add_packages(path);
        }
        view
    }

    /// Adds `folder` (if any, existing, and neither the home, the root nor the system's) to
    /// what it sees read-only: a folder that covers the home or the root would undo the
    /// sandbox.
    pub fn add_program_folder(&mut self, folder: Option<&Path>) {
        let Some(folder) = folder.filter(|f| f.is_dir() && f.is_absolute()) else {
            return;
        };
        let covers_too_much = Some(folder) == home().as_deref() || folder.parent().is_none();
        if !covers_too_much && !is_system(folder) && !self.programs.iter().any(|p| p == folder) {
            self.programs.push(folder.to_owned());
        }
    }

    /// The packages a file of a Node package can import: the outermost `node_modules`
    /// folder it is in (a package's dependencies sit beside it there, not inside it).
    fn add_packages(&mut self, path: &Path) {
        let packages = path
            .ancestors()
            .filter(|folder| {
                folder
                    .file_name()
                    .is_some_and(|name| name == "node_modules")
            })
            .last();
        self.add_program_folder(packages);
    }
}

/// The installation a program's folder belongs to: `prefix/bin` is `prefix` (a Node or
/// Python installation keeps its packages beside `bin`), and so is `prefix/shims` (pyenv's,
/// rbenv's, asdf's: a shim runs the manager and the version it picks from `prefix`), unless
/// `prefix` is a home folder or `~/.local`, which hold far more than programs.
fn installation(folder: &Path, home: Option<&Path>) -> PathBuf {
    let prefix = folder
        .parent()
        .filter(|_| folder.ends_with("bin") || folder.ends_with("shims"));
    match prefix {
        Some(prefix)
            if prefix.parent().is_some()
                && Some(prefix) != home
                && home.is_none_or(|home| prefix != home.join(".local")) =>
        {
            prefix.to_owned()
        }
        _ => folder.to_owned(),
    }
}

/// Whether `folder` is already in the view as part of the system.
fn is_system(folder: &Path) -> bool {
    SYSTEM.iter().any(|top| folder.starts_with(top))
}

pub(crate) fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

/// The server's environment in the sandbox: the base variables as the host has them (its
/// `PATH` as `path`, if given), how the machine reaches the network if it has the network,
/// `HOME` (empty in the sandbox), then those `configured`.
pub fn environment(
    configured: &[(OsString, OsString)],
    path: Option<&OsString>,
    network: bool,
) -> Vec<(OsString, OsString)> {
    let network_env = if network { NETWORK_ENV } else { &[] };
    let mut env: Vec<(OsString, OsString)> = BASE_ENV
        .iter()
        .chain(network_env)
        .filter_map(|name| {
            let value = match (*name, path) {
                ("PATH", Some(path)) => Some(path.clone()),
                _ => std::env::var_os(name),
            };
            value.map(|value| (OsString::from(name), value))
        })
        .collect();
    if let Some(home) = home() {
        env.push(("HOME".into(), home.into()));
    }
    for (key, value) in configured {
        env.retain(|(k, _)| k != key);
        env.push((key.clone(), value.clone()));
    }
    env
}

/// What the host notes in a sandboxed server's log, by kind for a face to say in its
/// language; `text` is the host's English.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub enum SandboxNote {
    /// A refusal that may be the sandbox's: the server has no network.
    NoNetwork,
    /// A refusal that may be the sandbox's: the server sees only what is shared with it.
    OnlyShared,
    /// The folders shared with it changed: it starts again in a sandbox that binds them.
    Rebound,
}

impl SandboxNote {
    pub fn text(self) -> &'static str {
        match self {
            Self::NoNetwork => {
                "this may be the sandbox: the server has no network; allow it the network in its \
                 settings if it needs it"
            }
            Self::OnlyShared => {
                "this may be the sandbox: the server sees only the system, its own program and \
                 the folders you share with it, and may write only in those folders"
            }
            Self::Rebound => {
                "the folders shared with it changed: it starts again, its sandbox binding them \
                 as they are now"
            }
        }
    }
}

/// What a line of a sandboxed server's standard error may say the sandbox stopped: the
/// note the host adds after it, or `None`. Read from the errors' usual wording (the C
/// library's, Node's, Python's); a line that only looks like one gets a note that says "may".
pub fn blocked(line: &str, network: bool) -> Option<SandboxNote> {
    const NETWORK: &[&str] = &[
        "ENETUNREACH",
        "Network is unreachable",
        "EAI_AGAIN",
        "Temporary failure in name resolution",
        "ENOTFOUND",
        "Could not resolve host",
        "ECONNREFUSED",
        "Connection refused",
    ];
    const FILES: &[&str] = &[
        "EACCES",
        "Permission denied",
        "EPERM",
        "Operation not permitted",
        "EROFS",
        "Read-only file system",
    ];
    let says = |words: &[&str]| words.iter().any(|w| line.contains(w));
    if !network && says(NETWORK) {
        Some(SandboxNote::NoNetwork)
    } else if says(FILES) {
        Some(SandboxNote::OnlyShared)
    } else {
        None
    }
}

/// An argument list being built.
#[derive(Default)]
pub(crate) struct Args(pub(crate) Vec<OsString>);

impl Args {
    pub(crate) fn flag(&mut self, flag: &str) {
        self.0.push(flag.into());
    }

    pub(crate) fn flags(&mut self, flags: &[&str]) {
        self.0.extend(flags.iter().map(OsString::from));
    }

    pub(crate) fn path(&mut self, path: &Path) {
        self.0.push(path.as_os_str().to_owned());
    }

    pub(crate) fn pair(&mut self, flag: &str, from: impl AsRef<Path>, to: impl AsRef<Path>) {
        self.flag(flag);
        self.path(from.as_ref());
        self.path(to.as_ref());
    }

    /// `-- program args`: the command the sandbox becomes.
    pub(crate) fn command(mut self, program: &Path, args: &[String]) -> Vec<OsString> {
        self.flag("--");
        self.path(program);
        self.0.extend(args.iter().map(OsString::from));
        self.0
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn strings(args: &[OsString]) -> Vec<String> {
        args.iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    /// The position of `flag` followed by `values` in `args`.
    pub(crate) fn find(args: &[String], flag: &str, values: &[&str]) -> Option<usize> {
        args.windows(1 + values.len())
            .position(|w| w[0] == flag && w[1..].iter().zip(values).all(|(a, b)| a == b))
    }

    #[test]
    fn a_program_in_a_bin_folder_brings_its_installation_and_the_system_brings_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("node/bin");
        std::fs::create_dir_all(&bin).unwrap();
        let script = dir.path().join("server/index.js");
        std::fs::create_dir_all(script.parent().unwrap()).unwrap();
        std::fs::write(&script, "").unwrap();
        let args = vec![
            script.display().to_string(),
            "--port".to_owned(),
            "/usr/share/doc".to_owned(),
        ];
        let view = View::of(&bin.join("node"), &args, &Shared::default(), false);
        assert_eq!(
            view.programs,
            vec![dir.path().join("node"), dir.path().join("server")]
        );
        let package = dir
            .path()
            .join("app/node_modules/@scope/server/dist/index.js");
        std::fs::create_dir_all(package.parent().unwrap()).unwrap();
        std::fs::write(&package, "").unwrap();
        let node = View::of(
            Path::new("/usr/bin/node"),
            &[package.display().to_string()],
            &Shared::default(),
            false,
        );
        assert_eq!(
            node.programs,
            vec![
                package.parent().unwrap().to_owned(),
                dir.path().join("app/node_modules")
            ],
            "the package's folder and the dependencies beside it"
        );
        let mut view = View::of(
            Path::new("/usr/bin/python3"),
            &[],
            &Shared::default(),
            false,
        );
        view.add_program_folder(Some(dir.path()));
        view.add_program_folder(home().as_deref());
        view.add_program_folder(Some(Path::new("/")));
        assert_eq!(
            view.programs,
            vec![dir.path().to_owned()],
            "its working folder, not the home"
        );
        let shims = dir.path().join(".pyenv/shims");
        std::fs::create_dir_all(&shims).unwrap();
        let pyenv = View::of(&shims.join("python3"), &[], &Shared::default(), false);
        assert_eq!(
            pyenv.programs,
            vec![dir.path().join(".pyenv")],
            "a version manager's shim brings the manager and its versions"
        );
        let system = View::of(
            Path::new("/usr/bin/python3"),
            &[],
            &Shared::default(),
            false,
        );
        assert!(system.programs.is_empty(), "{:?}", system.programs);
    }

    #[test]
    fn a_refusal_in_a_servers_errors_is_noted_as_maybe_the_sandbox() {
        let offline = "Error: getaddrinfo EAI_AGAIN registry.npmjs.org";
        assert_eq!(blocked(offline, false), Some(SandboxNote::NoNetwork));
        assert_eq!(
            blocked(offline, true),
            None,
            "with the network, not the sandbox"
        );
        let denied = "open /home/me/.config/x: Permission denied (os error 13)";
        assert_eq!(blocked(denied, true), Some(SandboxNote::OnlyShared));
        assert_eq!(blocked("listening on stdio", false), None);
    }

    #[test]
    fn the_environment_is_the_base_and_what_the_configuration_names() {
        let configured = vec![
            ("API_KEY".into(), "k".into()),
            ("PATH".into(), "/mine".into()),
        ];
        let env = environment(&configured, Some(&OsString::from("/login/path")), false);
        let names: Vec<_> = env
            .iter()
            .map(|(k, _)| k.to_string_lossy().into_owned())
            .collect();
        assert!(
            names.iter().all(
                |n| ["PATH", "LANG", "LC_ALL", "TERM", "HOME", "API_KEY"].contains(&n.as_str())
            ),
            "{names:?}"
        );
        let path: Vec<_> = env.iter().filter(|(k, _)| k == "PATH").collect();
        assert_eq!(path.len(), 1);
        assert_eq!(path[0].1, "/mine");
        // How the machine reaches the network, where it says: only with the network.
        let reaching: Vec<_> = NETWORK_ENV
            .iter()
            .filter_map(|name| Some((OsString::from(name), std::env::var_os(name)?)))
            .collect();
        let online = environment(&configured, None, true);
        for variable in &reaching {
            assert!(online.contains(variable), "{variable:?} with the network");
            assert!(!env.contains(variable), "{variable:?} without it");
        }
    }
}
