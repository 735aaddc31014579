//! Who decided and how it ended, as a person reads them: the one place these become text,
//! for what shows them (the activity view, the chat's events, a denial's error) and for
//! the audit trail's search. The words are those the trail has always shown, so that
//! records written before they were typed read the same as those written since.

use std::fmt::{self, Display, Formatter};

use super::{DecidedBy, Outcome, Reach, Scope};

/// How the audit trail names the person deciding by making the call themselves.
pub const BY_YOU: &str = "you (your own call)";

/// "agent <name>", as an agent is named wherever it asks or answers.
pub(super) fn agent(name: &str) -> String {
    format!("agent {name}")
}

impl Display for DecidedBy {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let said = match self {
            Self::Person => "user",
            Self::OwnCall => BY_YOU,
            Self::Rule {
                allow,
                reach,
                scope,
            } => return rule(f, *allow, *reach, *scope),
            Self::TrustedReadOnly => "trusted server: read-only tool",
            Self::SamplingWithoutReview => "policy: sampling without review for this server",
            Self::Pace { limit } => {
                return write!(
                    f,
                    "limit: {limit} a minute by standing rules (settings.agentCallsPerMinute); \
                     those refused after it until one is let through again are not recorded"
                );
            }
            Self::Agent { name } => return f.write_str(&agent(name)),
            Self::Remembered => "remembered answer",
            Self::NotChosenYet => "not chosen yet",
            Self::Caller => "caller",
            Self::Timeout => "timeout",
            Self::NoOneToAsk => "no one to ask",
            Self::ServerWithdrew => "the server",
            Self::AgentRemoved => "the agent was removed",
            Self::WrongAnswer => "an answer of the wrong kind",
            Self::Recorded(text) => text,
        };
        f.write_str(said)
    }
}

/// "policy: allowed for this tool, always", and the like.
fn rule(f: &mut Formatter<'_>, allow: bool, reach: Reach, scope: Scope) -> fmt::Result {
    let verb = if allow { "allowed" } else { "denied" };
    let what = match reach {
        Reach::Reads => "reading this server",
        Reach::Tool => "for this tool",
        Reach::Server => "for this server",
    };
    let scope = match scope {
        Scope::Always => "always",
        Scope::Session => "this session",
    };
    write!(f, "policy: {verb} {what}, {scope}")
}

impl Display for Outcome {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unknown => Ok(()),
            Self::Succeeded => f.write_str("ok"),
            Self::ToolError => f.write_str("tool error"),
            Self::Failed(why) => write!(f, "{FAILED}{why}"),
            Self::Recorded(text) => f.write_str(text),
        }
    }
}

/// What the text of a failure begins with.
pub const FAILED: &str = "error: ";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_reads_as_what_it_decided_for_how_long() {
        let rule = |allow, reach, scope| {
            DecidedBy::Rule {
                allow,
                reach,
                scope,
            }
            .to_string()
        };
        assert_eq!(
            rule(true, Reach::Tool, Scope::Always),
            "policy: allowed for this tool, always"
        );
        assert_eq!(
            rule(false, Reach::Server, Scope::Session),
            "policy: denied for this server, this session"
        );
        assert_eq!(
            rule(true, Reach::Reads, Scope::Session),
            "policy: allowed reading this server, this session"
        );
    }

    #[test]
    fn what_was_recorded_as_text_reads_as_it_was() {
        let old = "policy: allowed for this tool, always";
        assert_eq!(DecidedBy::Recorded(old.into()).to_string(), old);
        assert_eq!(
            Outcome::Recorded("error: gone".into()).to_string(),
            "error: gone"
        );
        assert_eq!(Outcome::Failed("gone".into()).to_string(), "error: gone");
        assert_eq!(Outcome::Unknown.to_string(), "");
        assert_eq!(
            DecidedBy::Agent {
                name: "Cursor".into()
            }
            .to_string(),
            "agent Cursor"
        );
    }
}
