//! The preset for a server that is an npm package started by `npx`: `npx` fetches the
//! package from the registry, which needs the network, and keeps it in a cache, which
//! needs a folder that lasts. Sandboxed, the package is fetched first in a step of its own,
//! with the network but nothing of the person's in view, into a cache folder kept for that
//! package; the server then starts from that cache offline, with the network as its
//! setting says. A fetch that fails (no network) is not the end: what the cache holds from
//! before is used.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The packages an `npx` command line runs, and the options that say where from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Npx {
    packages: Vec<String>,
    /// `--registry=…` and the like, passed to the fetch as given.
    options: Vec<String>,
}

impl Npx {
    /// The preset for `program args`, if `program` is `npx` and names a package.
    pub fn of(program: &Path, args: &[String]) -> Option<Self> {
        if program.file_name()? != "npx" {
            return None;
        }
        let mut packages = Vec::new();
        let mut options = Vec::new();
        let mut first = None;
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--" => {
                    first = args.next();
                    break;
                }
                "-p" | "--package" => packages.extend(args.next().cloned()),
                // A command line of its own, not a package.
                "-c" | "--call" => return None,
                _ => {
                    if let Some(package) = arg.strip_prefix("--package=") {
                        packages.push(package.to_owned());
                    } else if arg.starts_with("--") && arg.contains('=') {
                        options.push(arg.clone());
                    } else if !arg.starts_with('-') {
                        first = Some(arg);
                        break;
                    }
                }
            }
        }
        if packages.is_empty() {
            packages.extend(first.cloned());
        }
        (!packages.is_empty()).then_some(Self { packages, options })
    }

    /// The cache folder of these packages under `caches`: one per set of packages, so a
    /// server sees no other's downloads.
    pub fn cache_in(&self, caches: &Path) -> PathBuf {
        let name: String = self
            .packages
            .join("+")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "@.+-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        caches.join("npx").join(name)
    }

    /// The variables that point npm at `cache` (`offline` for the server's start: never
    /// waiting on a network it may not have).
    pub fn environment(cache: &Path, offline: bool) -> Vec<(OsString, OsString)> {
        let mut env: Vec<(OsString, OsString)> = vec![
            ("npm_config_cache".into(), cache.into()),
            ("npm_config_update_notifier".into(), "false".into()),
            // An unreachable registry is said at once rather than after a minute of retries.
            ("npm_config_fetch_retries".into(), "0".into()),
        ];
        if offline {
            env.push(("npm_config_offline".into(), "true".into()));
        }
        env
    }

    /// `npx`'s arguments that fetch the packages into the cache and run nothing of theirs.
    pub fn fetch_args(&self) -> Vec<String> {
        let mut args = vec!["--yes".to_owned()];
        args.extend(self.options.iter().cloned());
        for package in &self.packages {
            args.extend(["--package".to_owned(), package.clone()]);
        }
        args.extend(["--".to_owned(), "true".to_owned()]);
        args
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn npx(args: &[&str]) -> Option<Npx> {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        Npx::of(Path::new("/usr/bin/npx"), &args)
    }

    #[test]
    fn the_package_is_the_first_word_or_those_named_by_package() {
        let everything = npx(&["-y", "@modelcontextprotocol/server-everything", "stdio"]).unwrap();
        assert_eq!(
            everything.fetch_args(),
            [
                "--yes",
                "--package",
                "@modelcontextprotocol/server-everything",
                "--",
                "true"
            ]
        );
        assert_eq!(
            everything.cache_in(Path::new("/c")),
            Path::new("/c/npx/@modelcontextprotocol_server-everything")
        );
        let named = npx(&[
            "--registry=http://127.0.0.1:4873",
            "--package=a@1",
            "-p",
            "b",
            "--",
            "serve",
        ])
        .unwrap();
        assert_eq!(
            named.fetch_args(),
            [
                "--yes",
                "--registry=http://127.0.0.1:4873",
                "--package",
                "a@1",
                "--package",
                "b",
                "--",
                "true"
            ]
        );
        assert_eq!(npx(&["-c", "echo hi"]), None, "a command line, no package");
        assert_eq!(npx(&["--yes"]), None);
        let node = Npx::of(Path::new("/usr/bin/node"), &["server.js".to_owned()]);
        assert_eq!(node, None, "only npx");
    }
}
