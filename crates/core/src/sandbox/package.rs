//! The preset for a server that is a package a runner fetches: `npx` (npm) or `uvx` (uv).
//! The runner fetches the package from its registry, which needs the network, and keeps it
//! in a cache, which needs a folder that lasts. Sandboxed, the package is fetched first in
//! a step of its own, with the network but nothing of the person's in view, into a cache
//! folder kept for that package; the server then starts from that cache offline, with the
//! network as its setting says. A fetch that fails (no network) is not the end: what the
//! cache holds from before is used.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The runners the preset knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Runner {
    Npx,
    Uvx,
}

/// The packages a runner's command line runs, and the options that say where from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    runner: Runner,
    packages: Vec<String>,
    /// Options passed to the fetch as given (a registry, a Python version).
    options: Vec<String>,
}

impl Package {
    /// The preset for `program args`, if `program` is a runner and names a package.
    pub fn of(program: &Path, args: &[String]) -> Option<Self> {
        let runner = match program.file_name()?.to_str()? {
            "npx" => Runner::Npx,
            "uvx" => Runner::Uvx,
            _ => return None,
        };
        // The flags that name the package, those that add packages to it, and the options
        // that take a value (kept for the fetch).
        let (names, adds, takes_value): (&[&str], &[&str], &[&str]) = match runner {
            Runner::Npx => (&["-p", "--package"], &["-p", "--package"], &[]),
            Runner::Uvx => (
                &["--from"],
                &["-w", "--with"],
                &[
                    "-p",
                    "--python",
                    "--index",
                    "--default-index",
                    "--index-url",
                ],
            ),
        };
        let mut named: Option<String> = None;
        let mut added = Vec::new();
        let mut options = Vec::new();
        let mut first = None;
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) if arg.starts_with("--") => (flag, Some(value)),
                _ => (arg.as_str(), None),
            };
            let mut value = || inline.map(str::to_owned).or_else(|| args.next().cloned());
            if flag == "--" {
                first = args.next();
                break;
            } else if runner == Runner::Npx && (flag == "-c" || flag == "--call") {
                // A command line of its own, not a package.
                return None;
            } else if names.contains(&flag) && named.is_none() {
                named = value();
            } else if adds.contains(&flag) {
                added.extend(value());
            } else if takes_value.contains(&flag) {
                options.push(arg.clone());
                if inline.is_none() {
                    options.extend(args.next().cloned());
                }
            } else if inline.is_some() {
                options.push(arg.clone());
            } else if !arg.starts_with('-') {
                first = Some(arg);
                break;
            }
        }
        // Without a package named, the command is one.
        let mut packages = vec![named.or_else(|| first.cloned())?];
        packages.extend(added);
        Some(Self {
            runner,
            packages,
            options,
        })
    }

    /// The cache folder of these packages under `caches`: one per runner and set of
    /// packages, so a server sees no other's downloads.
    pub fn cache_in(&self, caches: &Path) -> PathBuf {
        let name: String = self
            .packages
            .join("+")
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "@.+-=".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let runner = match self.runner {
            Runner::Npx => "npx",
            Runner::Uvx => "uvx",
        };
        caches.join(runner).join(name)
    }

    /// The variables that point the runner at `cache` (`offline` for the server's start:
    /// never waiting on a network it may not have).
    pub fn environment(&self, cache: &Path, offline: bool) -> Vec<(OsString, OsString)> {
        let mut env: Vec<(OsString, OsString)> = match self.runner {
            Runner::Npx => vec![
                ("npm_config_cache".into(), cache.into()),
                ("npm_config_update_notifier".into(), "false".into()),
                // An unreachable registry is said at once rather than after a minute of
                // retries.
                ("npm_config_fetch_retries".into(), "0".into()),
            ],
            Runner::Uvx => vec![
                ("UV_CACHE_DIR".into(), cache.into()),
                // A Python uv downloads for the package is kept with it.
                ("UV_PYTHON_INSTALL_DIR".into(), cache.join("python").into()),
                ("UV_NO_PROGRESS".into(), "1".into()),
            ],
        };
        if offline {
            env.push(match self.runner {
                Runner::Npx => ("npm_config_offline".into(), "true".into()),
                Runner::Uvx => ("UV_OFFLINE".into(), "1".into()),
            });
        }
        env
    }

    /// The runner's arguments that fetch the packages into the cache and run nothing of
    /// theirs (`true` from the system, in an environment that has them).
    pub fn fetch_args(&self) -> Vec<String> {
        let mut args = Vec::new();
        if self.runner == Runner::Npx {
            args.push("--yes".to_owned());
        }
        args.extend(self.options.iter().cloned());
        let (first, more) = match self.runner {
            Runner::Npx => ("--package", "--package"),
            Runner::Uvx => ("--from", "--with"),
        };
        for (i, package) in self.packages.iter().enumerate() {
            let flag = if i == 0 { first } else { more };
            args.extend([flag.to_owned(), package.clone()]);
        }
        if self.runner == Runner::Npx {
            args.push("--".to_owned());
        }
        args.push("true".to_owned());
        args
    }

    /// Whether a configured variable is the runner's own (a private registry's token): the
    /// one kind the fetch is given.
    pub fn is_runners_variable(key: &str) -> bool {
        ["npm_config_", "NPM_", "UV_"]
            .iter()
            .any(|prefix| key.starts_with(prefix))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(program: &str, args: &[&str]) -> Option<Package> {
        let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
        Package::of(Path::new(program), &args)
    }

    #[test]
    fn npx_runs_its_first_word_or_the_packages_it_names() {
        let everything = run(
            "/usr/bin/npx",
            &["-y", "@modelcontextprotocol/server-everything", "stdio"],
        )
        .unwrap();
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
        let named = run(
            "npx",
            &[
                "--registry=http://127.0.0.1:4873",
                "--package=a@1",
                "-p",
                "b",
                "--",
                "serve",
            ],
        )
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
        assert_eq!(
            run("npx", &["-c", "echo hi"]),
            None,
            "a command line, no package"
        );
        assert_eq!(run("npx", &["--yes"]), None);
        assert_eq!(run("/usr/bin/node", &["server.js"]), None, "only a runner");
    }

    #[test]
    fn uvx_runs_its_command_or_the_package_from_names() {
        let time = run(
            "/home/me/.local/bin/uvx",
            &["mcp-server-time@2026.10.19", "--local-timezone", "UTC"],
        )
        .unwrap();
        assert_eq!(
            time.fetch_args(),
            ["--from", "mcp-server-time@2026.10.19", "true"]
        );
        assert_eq!(
            time.cache_in(Path::new("/c")),
            Path::new("/c/uvx/mcp-server-time@2026.10.19")
        );
        let from = run(
            "uvx",
            &[
                "--python",
                "3.12",
                "--from",
                "git-tools==1.0",
                "--with=extra",
                "git-serve",
                "--port",
                "1",
            ],
        )
        .unwrap();
        assert_eq!(
            from.fetch_args(),
            [
                "--python",
                "3.12",
                "--from",
                "git-tools==1.0",
                "--with",
                "extra",
                "true"
            ]
        );
        let added = run("uvx", &["--with", "pandas", "analyse"]).unwrap();
        assert_eq!(
            added.fetch_args(),
            ["--from", "analyse", "--with", "pandas", "true"]
        );
        let offline = time.environment(Path::new("/c/uvx/t"), true);
        assert!(
            offline.contains(&("UV_OFFLINE".into(), "1".into())),
            "{offline:?}"
        );
        assert!(offline.contains(&("UV_CACHE_DIR".into(), "/c/uvx/t".into())));
    }
}
