//! Tool-call policies: what the person decided for a tool or a whole server, for this
//! session or always, so that the same question is not asked again. A server's annotations
//! are its own claims: they relax nothing unless the person marked that server trusted.

use serde::{Deserialize, Serialize};
use switchboard_mcp::types::ToolAnnotations;

/// A standing decision about one tool of a server, or all of them (`tool: None`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolRule {
    pub server: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    pub allow: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Until the app quits.
    Session,
    /// Kept in the configuration until revoked.
    Always,
}

/// A decision taken without asking, and what took it (for the audit log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub allow: bool,
    pub decided_by: String,
}

#[derive(Debug, Clone, Default)]
pub struct Policies {
    always: Vec<ToolRule>,
    session: Vec<ToolRule>,
}

impl Policies {
    /// Policies with the standing rules read from the configuration.
    pub fn new(always: Vec<ToolRule>) -> Self {
        Self {
            always,
            session: Vec::new(),
        }
    }

    /// The rules to keep in the configuration.
    pub fn always(&self) -> &[ToolRule] {
        &self.always
    }

    /// Decides a call without asking, if a rule (or a trusted server's read-only claim)
    /// settles it; `None` means: ask the person.
    pub fn decide(
        &self,
        server: &str,
        tool: &str,
        annotations: Option<&ToolAnnotations>,
        trusted: bool,
    ) -> Option<Decision> {
        // The most specific rule wins (this tool over the whole server); at the same
        // specificity a denial wins over an allowance, whatever its scope.
        for specific in [true, false] {
            let matching = |rule: &&ToolRule| {
                rule.server == server
                    && match &rule.tool {
                        Some(t) => specific && t == tool,
                        None => !specific,
                    }
            };
            let found = |rules: &[ToolRule]| rules.iter().filter(matching).map(|r| r.allow).min();
            let from_always = found(&self.always);
            let from_session = found(&self.session);
            let verdict = match (from_always, from_session) {
                (Some(false), _) => Some((false, "always")),
                (_, Some(false)) => Some((false, "this session")),
                (Some(true), _) => Some((true, "always")),
                (None, Some(true)) => Some((true, "this session")),
                (None, None) => None,
            };
            if let Some((allow, scope)) = verdict {
                let what = if specific { "this tool" } else { "this server" };
                let verb = if allow { "allowed" } else { "denied" };
                return Some(Decision {
                    allow,
                    decided_by: format!("policy: {verb} for {what}, {scope}"),
                });
            }
        }
        let read_only = annotations
            .is_some_and(|a| a.read_only_hint == Some(true) && a.destructive_hint != Some(true));
        (trusted && read_only).then(|| Decision {
            allow: true,
            decided_by: "trusted server: read-only tool".into(),
        })
    }

    /// Remembers a decision; a newer rule replaces one for the same server and tool.
    pub fn remember(&mut self, rule: ToolRule, scope: Scope) {
        self.revoke(&rule.server, rule.tool.as_deref());
        match scope {
            Scope::Session => self.session.push(rule),
            Scope::Always => self.always.push(rule),
        }
    }

    /// Forgets the rules for a server's tool (or for the whole server with `None`).
    pub fn revoke(&mut self, server: &str, tool: Option<&str>) {
        let keep = |r: &ToolRule| !(r.server == server && r.tool.as_deref() == tool);
        self.always.retain(keep);
        self.session.retain(keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(server: &str, tool: Option<&str>, allow: bool) -> ToolRule {
        ToolRule {
            server: server.into(),
            tool: tool.map(Into::into),
            allow,
        }
    }

    fn read_only() -> ToolAnnotations {
        serde_json::from_value(serde_json::json!({"readOnlyHint": true})).unwrap()
    }

    #[test]
    fn nothing_is_decided_without_a_rule() {
        assert_eq!(Policies::default().decide("s", "t", None, false), None);
    }

    #[test]
    fn a_tool_rule_beats_a_server_rule() {
        let mut policies = Policies::default();
        policies.remember(rule("files", None, true), Scope::Always);
        policies.remember(rule("files", Some("delete"), false), Scope::Session);
        let delete = policies.decide("files", "delete", None, false).unwrap();
        assert_eq!(
            (delete.allow, delete.decided_by.as_str()),
            (false, "policy: denied for this tool, this session")
        );
        let read = policies.decide("files", "read", None, false).unwrap();
        assert_eq!(
            (read.allow, read.decided_by.as_str()),
            (true, "policy: allowed for this server, always")
        );
        assert_eq!(policies.decide("other", "read", None, false), None);
    }

    #[test]
    fn a_newer_decision_replaces_the_old_one_and_revoking_forgets_it() {
        let mut policies = Policies::new(vec![rule("s", Some("t"), true)]);
        policies.remember(rule("s", Some("t"), false), Scope::Always);
        assert_eq!(policies.always(), [rule("s", Some("t"), false)]);
        policies.revoke("s", Some("t"));
        assert_eq!(policies.decide("s", "t", None, false), None);
        assert!(policies.always().is_empty());
    }

    #[test]
    fn annotations_relax_nothing_unless_the_server_is_trusted() {
        let policies = Policies::default();
        assert_eq!(policies.decide("s", "t", Some(&read_only()), false), None);
        let trusted = policies.decide("s", "t", Some(&read_only()), true).unwrap();
        assert!(trusted.allow);
        assert_eq!(trusted.decided_by, "trusted server: read-only tool");
        let contradictory: ToolAnnotations = serde_json::from_value(
            serde_json::json!({"readOnlyHint": true, "destructiveHint": true}),
        )
        .unwrap();
        assert_eq!(policies.decide("s", "t", Some(&contradictory), true), None);
    }

    #[test]
    fn a_denial_beats_an_allowance_at_the_same_level() {
        let mut policies = Policies::new(vec![rule("s", None, false)]);
        policies.remember(rule("s", None, true), Scope::Session);
        // `remember` replaced the standing denial: the session allowance holds.
        assert!(policies.decide("s", "x", None, false).unwrap().allow);
        let both = Policies {
            always: vec![rule("s", None, false)],
            session: vec![rule("s", None, true)],
        };
        assert!(!both.decide("s", "x", None, false).unwrap().allow);
    }
}
