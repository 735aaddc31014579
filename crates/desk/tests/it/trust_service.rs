//! The trust service on its own, in process: the real gate (its broker, its audit trail
//! in a file of the test's), the real roots, and its port played by a configuration held
//! in memory. What it decides itself is checked here: an answer that does not fit its form
//! is refused and the question stays for the person; the folders the person shares are
//! kept for the server as launched, and a late answer shares nothing.

use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use serde_json::json;
use switchboard_core::approvals::{Answer, AnswerError, Broker, Question, Settled};
use switchboard_core::audit::{AuditLog, Retention};
use switchboard_core::catalog::Catalog;
use switchboard_core::config::{Config, HostSettings, ServerConfig};
use switchboard_core::gate::Gate;
use switchboard_core::roots::Roots;
use switchboard_desk::trust::{FoldersChange, TrustHost};
use switchboard_desk::{Trust, TrustError};
use switchboard_mcp::client::Client;
use switchboard_mcp::transport::BoxFuture;
use tokio::task::JoinHandle;

use crate::common::WAIT;

/// The configuration in memory, with one server, "notes".
struct Memory {
    config: Mutex<Config>,
}

impl TrustHost for Memory {
    fn config(&self) -> Config {
        self.config.lock().clone()
    }
    fn edit_folders(&self, change: FoldersChange) -> BoxFuture<'_, bool> {
        change(&mut self.config.lock().settings.shared_folders);
        Box::pin(async { true })
    }
    fn client(&self, _server: &str) -> Option<Client> {
        None
    }
}

struct World {
    trust: Trust,
    memory: Arc<Memory>,
    broker: Broker,
    roots: Roots,
    _dir: tempfile::TempDir,
}

fn world() -> World {
    let dir = tempfile::tempdir().expect("a folder");
    let mut config = Config::default();
    let notes: ServerConfig =
        serde_json::from_value(json!({"command": "notes"})).expect("a server");
    config.servers.insert("notes".into(), notes);
    let memory = Arc::new(Memory {
        config: Mutex::new(config),
    });
    let broker = Broker::new(Duration::from_secs(120), 8);
    let audit = AuditLog::open(&dir.path().join("audit.sqlite"), Retention::default())
        .expect("an audit trail");
    let catalog = Catalog::default();
    let gate = Gate::new(
        broker.clone(),
        Arc::new(audit),
        catalog.clone(),
        &HostSettings::default(),
        None,
    );
    let roots = Roots::default();
    let trust = Trust::new(gate, roots.clone(), catalog, memory.clone());
    World {
        trust,
        memory,
        broker,
        roots,
        _dir: dir,
    }
}

/// Asks the person `question` as "notes" does, once it is waiting.
async fn asked(w: &World, question: Question) -> (u64, JoinHandle<Result<Settled, AnswerError>>) {
    let mut added = w.broker.subscribe();
    let broker = w.broker.clone();
    let asking = tokio::spawn(async move { broker.ask("notes", question).await });
    tokio::time::timeout(WAIT, added.recv())
        .await
        .expect("the question waits")
        .expect("announced");
    (w.trust.pending()[0].id, asking)
}

#[tokio::test]
async fn an_answer_that_does_not_fit_its_form_is_refused_and_the_question_stays() {
    let w = world();
    let form = json!({"mode": "form", "message": "Your age?", "requestedSchema": {
        "type": "object",
        "properties": {"age": {"type": "integer", "minimum": 0}},
        "required": ["age"],
    }});
    let question = Question::Elicitation {
        params: Box::new(serde_json::from_value(form).unwrap()),
    };
    let (id, asking) = asked(&w, question).await;

    let wrong = json!({"action": "accept", "content": {"age": -3}});
    let refused = w.trust.answer_elicitation(id, "notes", wrong);
    assert!(
        matches!(&refused, Err(TrustError::BadAnswer(why)) if why.contains("age")),
        "{refused:?}"
    );
    assert_eq!(w.trust.waiting(), 1, "the person can fix the answer");

    let right = json!({"action": "accept", "content": {"age": 42}});
    assert_eq!(
        w.trust.answer_elicitation(id, "notes", right).unwrap(),
        None
    );
    let settled = tokio::time::timeout(WAIT, asking)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(matches!(settled.answer, Answer::Elicitation(_)));
    assert_eq!(w.trust.waiting(), 0);
}

#[tokio::test]
async fn the_folders_shared_are_kept_for_the_server_as_launched_and_a_late_answer_shares_none() {
    let w = world();
    let folder = tempfile::tempdir().unwrap();
    let (id, asking) = asked(&w, Question::Roots).await;
    w.trust
        .answer_roots(id, "notes", &[folder.path().to_owned()])
        .await
        .unwrap();
    tokio::time::timeout(WAIT, asking)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let shown = folder.path().display().to_string();
    assert_eq!(w.trust.roots_of("notes"), std::slice::from_ref(&shown));
    let kept = w.memory.config().settings.shared_folders;
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].server, "notes");
    assert_eq!(kept[0].folders, [folder.path().to_owned()]);
    let launched = w.memory.config().servers["notes"].identity();
    assert_eq!(
        kept[0].identity, launched,
        "pinned to the server as launched"
    );
    let listed = w.trust.shared_folders();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].folders, [shown]);

    // Answered after the question went: nothing more is shared.
    let other = tempfile::tempdir().unwrap();
    let late = w
        .trust
        .answer_roots(id, "notes", &[other.path().to_owned()])
        .await;
    assert!(
        matches!(late, Err(TrustError::Answer(AnswerError::NotPending(_)))),
        "{late:?}"
    );
    assert_eq!(w.roots.of("notes").len(), 1);
}
