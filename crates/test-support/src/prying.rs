//! What a prying server (the hostile peer's `prying` mode) is sent after, to show what the
//! sandbox stops: a file of the person's, `/etc/shadow`, a file beside the folder shared with
//! it, a TCP listener on this machine and a variable of the host's environment; and the
//! shared folder, which it must read and write.

use std::net::TcpListener;
use std::path::{Path, PathBuf};

/// The targets, in a folder of the person's home.
pub struct Targets {
    _home: tempfile::TempDir,
    /// A file of the person's, not shared.
    secret: PathBuf,
    /// The folder shared with the server, and a file in it.
    pub root: PathBuf,
    inside: PathBuf,
    /// A file in a folder beside it, not shared.
    pub outside: PathBuf,
    listener: TcpListener,
    /// A variable of the host's environment no configuration names.
    variable: String,
}

impl Default for Targets {
    fn default() -> Self {
        Self::new()
    }
}

impl Targets {
    pub fn new() -> Self {
        let home = std::env::var_os("HOME").map(PathBuf::from).expect("HOME");
        let home = tempfile::tempdir_in(home).expect("a folder in the home");
        let write = |path: &Path, text: &str| std::fs::write(path, text).expect("written");
        let secret = home.path().join("secret.txt");
        write(&secret, "the person's");
        let root = home.path().join("shared");
        std::fs::create_dir(&root).expect("the shared folder");
        let inside = root.join("notes.txt");
        write(&inside, "shared");
        let outside = home.path().join("beside/notes.txt");
        std::fs::create_dir(home.path().join("beside")).expect("a folder beside");
        write(&outside, "not shared");
        let base = ["PATH", "LANG", "LC_ALL", "TERM", "HOME"];
        let variable = std::env::vars_os()
            .filter_map(|(name, _)| name.into_string().ok())
            .find(|name| !base.contains(&name.as_str()) && !name.starts_with("PRY_"))
            .expect("a variable of the host's");
        Self {
            _home: home,
            secret,
            root,
            inside,
            outside,
            listener: TcpListener::bind("127.0.0.1:0").expect("a listener"),
            variable,
        }
    }

    /// The file the server writes in its shared folder.
    pub fn written(&self) -> PathBuf {
        self.root.join("written.txt")
    }

    /// The variables that tell the prying server what to try.
    pub fn env(&self) -> Vec<(String, String)> {
        let joined = |paths: &[&Path]| {
            let paths: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            paths.join(":")
        };
        vec![
            (
                "PRY_READ".to_owned(),
                joined(&[&self.secret, Path::new("/etc/shadow"), &self.inside]),
            ),
            (
                "PRY_WRITE".to_owned(),
                joined(&[&self.outside, &self.written()]),
            ),
            (
                "PRY_CONNECT".to_owned(),
                self.listener.local_addr().expect("its address").to_string(),
            ),
            ("PRY_ENV".to_owned(), self.variable.clone()),
        ]
    }

    /// The prying server's entry in a configuration file (the hostile peer in its `prying`
    /// mode, sent after these targets), in the sandbox `engine` builds without network
    /// (`"auto"`, `"bubblewrap"`, `"landlock"`) or not sandboxed.
    pub fn server_entry(&self, engine: Option<&str>) -> serde_json::Value {
        let env: serde_json::Map<String, serde_json::Value> = self
            .env()
            .into_iter()
            .map(|(name, value)| (name, serde_json::Value::String(value)))
            .collect();
        let mut entry = serde_json::json!({
            "command": crate::binaries::workspace_binary("hostile-peer").display().to_string(),
            "args": ["prying"],
            "env": env,
        });
        if let Some(engine) = engine {
            entry["sandbox"] = serde_json::json!({"network": false, "engine": engine});
        }
        entry
    }

    /// Each attempt the server makes, by the name it reports it under, and whether it must
    /// succeed.
    pub fn expected(&self, sandbox: bool) -> Vec<(String, bool)> {
        let reaches = !sandbox;
        let address = self.listener.local_addr().expect("its address");
        let mut expected = vec![
            (format!("read {}", self.secret.display()), reaches),
            (format!("write {}", self.outside.display()), reaches),
            (format!("connect {address}"), reaches),
            (format!("env {}", self.variable), reaches),
            (format!("read {}", self.inside.display()), true),
            (format!("write {}", self.written().display()), true),
        ];
        // Without the sandbox the server has the person's rights: this file is root's.
        if sandbox || std::fs::read("/etc/shadow").is_ok() {
            expected.push(("read /etc/shadow".to_owned(), reaches));
        }
        expected
    }

    /// Checks what the server reported (its `poke` answer's text) and what it left on the
    /// disk against what it must have reached.
    pub fn check(&self, sandbox: bool, reported: &str) {
        let found: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(reported).expect("a JSON object");
        for (attempt, succeeds) in self.expected(sandbox) {
            let got = found[&attempt].as_str().unwrap_or_default();
            assert_eq!(
                got.starts_with("ok"),
                succeeds,
                "sandboxed: {sandbox}; {attempt}: {got}"
            );
        }
        let outside = std::fs::read_to_string(&self.outside).expect("the file beside");
        assert_eq!(outside == "pried", !sandbox, "sandboxed: {sandbox}");
        let written = std::fs::read_to_string(self.written()).expect("written in the root");
        assert_eq!(written, "pried");
    }
}
