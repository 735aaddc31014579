//! The layers of a crate, checked from its sources (in the spirit of rust-analyzer's tidy
//! tests): each top-level module of the crate belongs to one layer, declared once by the
//! crate's own test, bottom first; a module may name (`crate::…`) only modules of its own
//! layer or of those below, and no modules of one layer name each other round. Test-only
//! code (`#[cfg(test)]` modules) and comments are not read: a test may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Fails, naming every fault, unless the sources in `src` hold to `layers` (see [`check`]):
/// the test each crate declares its layers in.
pub fn assert_layered(src: &Path, layers: &[&[&str]]) {
    if let Err(faults) = check(src, layers) {
        panic!(
            "{}: the layers are broken:\n{}",
            src.display(),
            faults.join("\n")
        );
    }
}

/// Checks the crate whose sources are in `src` against `layers` (bottom first, each the
/// names of its top-level modules): every fault, one line each, if any.
pub fn check(src: &Path, layers: &[&[&str]]) -> Result<(), Vec<String>> {
    let mut faults = Vec::new();
    let layer_of: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(layer, names)| names.iter().map(move |name| (*name, layer)))
        .collect();
    let modules = modules(src);
    for name in modules.keys() {
        if !layer_of.contains_key(name.as_str()) {
            faults.push(format!("module `{name}` is in no layer: declare it in one"));
        }
    }
    for name in layer_of.keys() {
        if !modules.contains_key(*name) {
            faults.push(format!(
                "layer names `{name}`, which is no module of the crate"
            ));
        }
    }
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (name, files) in &modules {
        let Some(&from) = layer_of.get(name.as_str()) else {
            continue;
        };
        for file in files {
            let text = std::fs::read_to_string(file).unwrap_or_default();
            for (line, named) in named_modules(&text) {
                let Some((target, &to)) = layer_of.get_key_value(named.as_str()) else {
                    continue;
                };
                if *target == name.as_str() {
                    continue;
                }
                let place = format!("{}:{line}", relative(file, src));
                if to > from {
                    faults.push(format!(
                        "{place}: `{name}` (layer {from}) imports `{target}` (layer {to}), above it"
                    ));
                } else if to == from {
                    edges.entry(name.as_str()).or_default().insert(target);
                }
            }
        }
    }
    for cycle in cycles(&edges) {
        faults.push(format!(
            "modules of one layer import each other round: {}",
            cycle.join(" -> ")
        ));
    }
    if faults.is_empty() {
        Ok(())
    } else {
        Err(faults)
    }
}

/// The crate's top-level modules (`src/<name>.rs` and everything under `src/<name>/`), each
/// with its files that are not test-only.
fn modules(src: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut files = Vec::new();
    walk(src, &mut files);
    let tests = test_only(&files);
    let mut modules: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for file in files {
        if tests
            .iter()
            .any(|t| file.starts_with(t.with_extension("")) || file == *t)
        {
            continue;
        }
        let relative = file.strip_prefix(src).unwrap_or(&file);
        let first = relative
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = first.strip_suffix(".rs").unwrap_or(&first).to_owned();
        if relative.components().count() == 1 && matches!(name.as_str(), "lib" | "main") {
            continue;
        }
        modules.entry(name).or_default().push(file);
    }
    modules
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The files of modules declared `#[cfg(test)] mod name;`.
fn test_only(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut tests = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for pair in lines.windows(2) {
            let declared = pair[1]
                .strip_prefix("pub(crate) ")
                .or_else(|| pair[1].strip_prefix("pub "))
                .unwrap_or(pair[1]);
            let Some(name) = declared
                .strip_prefix("mod ")
                .and_then(|rest| rest.strip_suffix(';'))
            else {
                continue;
            };
            if pair[0] == "#[cfg(test)]" {
                tests.push(child(file, name));
            }
        }
    }
    tests
}

/// Where `mod name;` declared in `file` lives (as `<dir>/name.rs`; a `name/mod.rs` is
/// matched by its folder).
fn child(file: &Path, name: &str) -> PathBuf {
    let stem = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let dir = file.parent().unwrap_or(Path::new(""));
    let dir = if matches!(stem, "lib" | "main" | "mod") {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    dir.join(format!("{name}.rs"))
}

/// The top-level modules `text` names as `crate::name` or in `crate::{a, b::c}`, with the
/// line of each (from 1), comments and inline `#[cfg(test)]` modules left out.
fn named_modules(text: &str) -> Vec<(usize, String)> {
    let mut named = Vec::new();
    let mut skipping: Option<i64> = None;
    let mut cfg_test = false;
    for (index, raw) in text.lines().enumerate() {
        let line = code_of(raw);
        let trimmed = line.trim();
        if let Some(depth) = skipping.as_mut() {
            *depth += braces(line);
            if *depth <= 0 {
                skipping = None;
            }
            continue;
        }
        if trimmed == "#[cfg(test)]" {
            cfg_test = true;
            continue;
        }
        if cfg_test && trimmed.starts_with("mod ") && trimmed.ends_with('{') {
            let depth = braces(line);
            skipping = (depth > 0).then_some(depth);
            cfg_test = false;
            continue;
        }
        cfg_test = false;
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().last();
            rest = &rest[at + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            if let Some(group) = rest.strip_prefix('{') {
                for name in group_heads(group) {
                    named.push((index + 1, name));
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    named.push((index + 1, name));
                }
            }
        }
    }
    named
}

/// A line without its `//` comment (a `//` inside a string literal, as in a URL, is kept).
fn code_of(line: &str) -> &str {
    let mut in_string = false;
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        match c {
            '"' if previous != '\\' => in_string = !in_string,
            '/' if !in_string && previous == '/' => return &line[..at - 1],
            _ => {}
        }
        previous = c;
    }
    line
}

fn braces(line: &str) -> i64 {
    line.chars()
        .map(|c| match c {
            '{' => 1,
            '}' => -1,
            _ => 0,
        })
        .sum()
}

/// The first segment of each path of a `{…}` group (on one line), as in `a, b::c, d::{e}`.
fn group_heads(group: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut at_start = true;
    let mut current = String::new();
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_start = true,
            c if depth == 0 && at_start && (c.is_alphanumeric() || c == '_') => current.push(c),
            _ => {
                if !current.is_empty() {
                    heads.push(std::mem::take(&mut current));
                }
                if depth == 0 && !c.is_whitespace() {
                    at_start = false;
                }
            }
        }
    }
    if !current.is_empty() {
        heads.push(current);
    }
    heads
}

fn relative(file: &Path, src: &Path) -> String {
    let crate_dir = src.parent().unwrap_or(src);
    file.strip_prefix(crate_dir)
        .unwrap_or(file)
        .display()
        .to_string()
}

/// The cycles of `edges`, one per group of modules that import each other round, as the
/// path of one round through them.
fn cycles<'a>(edges: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Vec<Vec<&'a str>> {
    let mut found = Vec::new();
    let mut done: BTreeSet<&str> = BTreeSet::new();
    for &start in edges.keys() {
        if done.contains(start) {
            continue;
        }
        if let Some(round) = round_from(start, edges) {
            done.extend(round.iter().copied());
            found.push(round);
        }
        done.insert(start);
    }
    found
}

/// A path from `start` back to itself, if there is one (breadth first: the shortest).
fn round_from<'a>(
    start: &'a str,
    edges: &BTreeMap<&'a str, BTreeSet<&'a str>>,
) -> Option<Vec<&'a str>> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        for &next in edges.get(at).into_iter().flatten() {
            if next == start {
                let mut path = vec![start, at];
                let mut back = at;
                while let Some(&previous) = came_from.get(back) {
                    path.insert(1, previous);
                    back = previous;
                }
                path.dedup();
                path.push(start);
                return Some(path);
            }
            if next != start && !came_from.contains_key(next) {
                came_from.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crate's sources, written to a temporary folder: (path under `src`, text).
    fn sources(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        for (path, text) in files {
            let path = dir.path().join("src").join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("folders");
            std::fs::write(path, text).expect("write");
        }
        dir
    }

    const LAYERS: &[&[&str]] = &[&["clock"], &["config", "rules"], &["desk"]];

    fn checked(files: &[(&str, &str)]) -> Result<(), Vec<String>> {
        let dir = sources(files);
        check(&dir.path().join("src"), LAYERS)
    }

    fn layered_crate() -> Vec<(&'static str, &'static str)> {
        vec![
            (
                "lib.rs",
                "pub mod clock;\npub mod config;\npub mod rules;\npub mod desk;\n",
            ),
            ("clock.rs", "pub fn now() {}\n"),
            ("config/mod.rs", "use crate::clock::now;\nmod model;\n"),
            ("config/model.rs", "use crate::{clock, rules::Rule};\n"),
            ("rules.rs", "pub struct Rule;\n"),
            (
                "desk.rs",
                "use crate::config;\n// crate::nothing in a comment\nlet url = \"http://x\"; // crate::nowhere\n",
            ),
        ]
    }

    #[test]
    fn a_crate_that_imports_only_downwards_passes() {
        assert_eq!(checked(&layered_crate()), Ok(()));
    }

    #[test]
    fn an_upward_import_is_named_with_its_place() {
        let mut files = layered_crate();
        files.push((
            "config/model.rs",
            "use crate::rules::Rule;\n\nuse crate::desk::Desk;\n",
        ));
        assert_eq!(
            checked(&files),
            Err(vec![
                "src/config/model.rs:3: `config` (layer 1) imports `desk` (layer 2), above it"
                    .to_owned()
            ])
        );
    }

    #[test]
    fn modules_of_one_layer_that_import_each_other_round_are_named() {
        let mut files = layered_crate();
        files.push(("rules.rs", "use crate::config::Config;\n"));
        let faults = checked(&files).expect_err("a cycle");
        assert_eq!(
            faults,
            ["modules of one layer import each other round: config -> rules -> config"]
        );
    }

    #[test]
    fn test_only_code_may_reach_anywhere() {
        let mut files = layered_crate();
        files.push((
            "clock.rs",
            "pub fn now() {}\n#[cfg(test)]\nmod tests {\n    use crate::desk;\n}\n#[cfg(test)]\nmod fuzz;\n",
        ));
        files.push(("clock/fuzz.rs", "use crate::desk;\n"));
        assert_eq!(checked(&files), Ok(()));
    }

    #[test]
    fn a_module_in_no_layer_and_a_layer_naming_no_module_are_faults() {
        let mut files = layered_crate();
        files.push(("audit.rs", "\n"));
        files.retain(|(path, _)| *path != "rules.rs");
        files.push(("config/model.rs", "\n"));
        let faults = checked(&files).expect_err("faults");
        assert_eq!(
            faults,
            [
                "module `audit` is in no layer: declare it in one",
                "layer names `rules`, which is no module of the crate"
            ]
        );
    }
}
