//! Which scenarios the suite requires of a client or a server at a revision, in its own
//! words: `conformance list --requirements REVISION` for a revision it froze a requirement
//! set for (`requirements/REVISION.yaml`, what `--requirements REVISION` runs), else
//! `conformance list --client|--server --spec-version REVISION`, every scenario it has for
//! that revision; none for a revision it does not know.

/// Which side of the protocol the suite judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Client,
    Server,
}

impl Role {
    fn flag(self) -> &'static str {
        match self {
            Self::Client => "--client",
            Self::Server => "--server",
        }
    }

    /// The heading the suite's list puts over this side's scenarios.
    fn heading(self) -> &'static str {
        match self {
            Self::Client => "Client scenarios (test against a client):",
            Self::Server => "Server scenarios (test against a server):",
        }
    }
}

/// The scenarios the suite requires of `role` at `revision`, in its order.
fn required(role: Role, revision: &str) -> Vec<String> {
    let frozen = super::suite()
        .join("requirements")
        .join(format!("{revision}.yaml"))
        .exists();
    let mut command = super::node(None);
    command.arg("list");
    if frozen {
        command.args(["--requirements", revision]);
    } else {
        command.args([role.flag(), "--spec-version", revision]);
    }
    let output = command.output().expect("run the conformance suite");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    if !output.status.success() {
        assert!(
            said.contains(&format!("Unknown spec version: {revision}")),
            "the suite could not list the scenarios of {revision}:\n{said}"
        );
        return Vec::new();
    }
    listed_under(&said, role.heading())
}

/// Asserts that at each of `revisions` (every revision the program judged speaks), the
/// scenarios `ours` lists for it (none where it lists none) are exactly those the suite
/// requires of `role` there; and that `ours` lists no revision beyond them.
pub fn assert_runs_what_is_required(role: Role, ours: &[(&str, &[&str])], revisions: &[&str]) {
    for (revision, _) in ours {
        assert!(
            revisions.contains(revision),
            "{revision} is listed here but not spoken: {revisions:?}"
        );
    }
    for revision in revisions {
        let here = ours
            .iter()
            .find(|(r, _)| r == revision)
            .map(|(_, listed)| *listed)
            .unwrap_or_default();
        assert_same_scenarios(here, &required(role, revision), revision);
    }
}

/// Asserts that `ours` are the scenarios `theirs` (the suite's list) names at `revision`,
/// telling those missing here and those here it no longer requires.
fn assert_same_scenarios(ours: &[&str], theirs: &[String], revision: &str) {
    let missing: Vec<&String> = theirs
        .iter()
        .filter(|s| !ours.contains(&s.as_str()))
        .collect();
    let unrequired: Vec<&&str> = ours
        .iter()
        .filter(|s| !theirs.iter().any(|t| t == *s))
        .collect();
    assert!(
        missing.is_empty() && unrequired.is_empty() && ours.len() == theirs.len(),
        "at {revision}, the suite requires {missing:?} that are not tested here, \
         and no longer requires {unrequired:?} (or one is listed twice here)"
    );
}

/// The names listed as `  - name` (or `  - name [revisions]`) right under `heading`.
fn listed_under(listing: &str, heading: &str) -> Vec<String> {
    let mut lines = listing.lines().skip_while(|line| line.trim() != heading);
    assert!(
        lines.next().is_some(),
        "the suite's list has no {heading:?}:\n{listing}"
    );
    lines
        .map_while(|line| line.strip_prefix("  - "))
        .map(|item| item.split(" [").next().unwrap_or(item).to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_those_under_the_heading_up_to_the_next_blank_line() {
        let listing = "Required for 2026-07-28:\n\nServer scenarios (test against a server):\n  - ping\n\n\
            Client scenarios (test against a client):\n  - tools_call [2025-06-18,2026-07-28]\n  - auth/x\n\n\
            Run and reported, but never scored:\n  extension (1):\n    - auth/dpop [client]\n";
        assert_eq!(
            listed_under(listing, Role::Client.heading()),
            ["tools_call", "auth/x"]
        );
        assert_eq!(listed_under(listing, Role::Server.heading()), ["ping"]);
    }
}
