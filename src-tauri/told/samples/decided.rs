//! Who decides and how a call ended, as the audit trail words them
//! (`ui/src/testing/decided.json`).

use super::current;

/// Each decider and outcome as the audit trail words them in English, beside its kind,
/// and each asker as it words them:
/// the window, which words them in the person's language, is checked against them
/// (`ui/src/activity/decisions.test.ts`).
const DECIDED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/src/testing/decided.json");

fn decided() -> serde_json::Value {
    use switchboard_core::decisions::{DecidedBy, Outcome, Reach, Scope};
    let rules = [
        (true, Reach::Tool, Scope::Always),
        (false, Reach::Server, Scope::Session),
        (true, Reach::Reads, Scope::Session),
    ];
    let deciders = [
        DecidedBy::Person,
        DecidedBy::OwnCall,
        DecidedBy::TrustedReadOnly,
        DecidedBy::SamplingWithoutReview,
        DecidedBy::Pace { limit: 60 },
        DecidedBy::Agent {
            name: "Cursor".into(),
        },
        DecidedBy::Remembered,
        DecidedBy::NotChosenYet,
        DecidedBy::Caller,
        DecidedBy::Timeout,
        DecidedBy::NoOneToAsk,
        DecidedBy::ServerWithdrew,
        DecidedBy::AgentRemoved,
        DecidedBy::WrongAnswer,
        DecidedBy::Recorded("an old record".into()),
    ]
    .into_iter()
    .chain(rules.map(|(allow, reach, scope)| DecidedBy::Rule {
        allow,
        reach,
        scope,
    }));
    let outcomes = [
        Outcome::Unknown,
        Outcome::Succeeded,
        Outcome::ToolError,
        Outcome::Failed("the server went away".into()),
        Outcome::Recorded("declined".into()),
    ];
    use switchboard_core::decisions::Origin;
    let askers = [
        Origin::Person,
        Origin::Model {
            conversation: "7".into(),
            title: "Trip to Kyoto".into(),
        },
        Origin::Agent {
            name: "Cursor".into(),
        },
        Origin::App {
            server: "board".into(),
        },
    ];
    serde_json::json!({
        "askedBy": askers.map(|o| o.describe()),
        "decidedBy": deciders.map(|d| serde_json::json!({"value": d, "text": d.to_string()})).collect::<Vec<_>>(),
        "outcome": outcomes.map(|o| serde_json::json!({"value": o, "text": o.to_string()})),
    })
}

#[test]
fn the_windows_samples_of_each_decider_and_outcome_are_current() {
    current(DECIDED, &decided());
}
