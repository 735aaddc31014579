//! The desk as the window uses it, with no window: a server added through the form runs
//! and lands in the configuration file; a tool call waits for the person, reports its
//! progress and can be cancelled; a form answer that does not fit is refused and can be
//! fixed; a broken configuration file is reported and never overwritten.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use switchboard_core::approvals::{Pending, Question, Remember};
use switchboard_core::config::{ConfigProblem, ProtocolEra};
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::ServerState;
use switchboard_core::sqlite_file::{Book, MovedAside};
use switchboard_desk::{Desk, ExplorerError, FileNotice, ServerForm, ServersError, Update};
use tokio::sync::broadcast;

use crate::common::{self, WAIT, text_of};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python_form(name: &str) -> ServerForm {
    ServerForm {
        name: name.into(),
        command: root().join(".tools/venv/bin/python").display().to_string(),
        args: vec![
            root()
                .join("tests/peers/python/server.py")
                .display()
                .to_string(),
        ],
        // Its tools ask the person push-style (sampling, forms, links), which only the
        // stateful era carries.
        protocol_era: ProtocolEra::Session,
        ..ServerForm::default()
    }
}

struct World {
    desk: Desk,
    updates: broadcast::Receiver<Update>,
    config: PathBuf,
    _dir: tempfile::TempDir,
}

async fn world() -> World {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.json");
    let desk = Desk::open(
        &config,
        &dir.path().join("audit.sqlite"),
        Secrets::new("switchboard-test-desk"),
    )
    .unwrap();
    let updates = desk.updates();
    World {
        desk,
        updates,
        config,
        _dir: dir,
    }
}

/// A desk with the Python peer added through the form, and running.
async fn world_with_python() -> World {
    let mut world = world().await;
    world
        .desk
        .servers()
        .save_server(None, python_form("py"))
        .await
        .unwrap();
    world.running("py").await;
    world
}

impl World {
    /// Waits for the first update `pick` accepts.
    async fn next<T>(&mut self, mut pick: impl FnMut(Update) -> Option<T>) -> T {
        tokio::time::timeout(WAIT, async {
            loop {
                if let Ok(update) = self.updates.recv().await
                    && let Some(found) = pick(update)
                {
                    return found;
                }
            }
        })
        .await
        .expect("the update came")
    }

    async fn running(&mut self, name: &str) {
        self.next(|u| match u {
            Update::Status {
                server,
                state: ServerState::Running { .. },
                ..
            } if server == name => Some(()),
            _ => None,
        })
        .await;
    }

    async fn asked(&mut self) -> Pending {
        self.next(|u| match u {
            Update::ApprovalAdded { pending } => Some(*pending),
            _ => None,
        })
        .await
    }

    /// Waits for the next tool call to be asked about and allows it as asked.
    async fn allow_next(&mut self) {
        let asked = self.asked().await;
        let Question::ToolCall { arguments, .. } = asked.question else {
            panic!("asked {:?}", asked.question)
        };
        self.desk
            .trust()
            .answer_tool_call(asked.id, "py", true, arguments, Remember::Once)
            .unwrap();
    }

    fn call(
        &self,
        tool: &str,
        arguments: Value,
    ) -> tokio::task::JoinHandle<Result<Value, ExplorerError>> {
        let desk = self.desk.clone();
        let tool = tool.to_owned();
        let arguments: Map<String, Value> = arguments.as_object().cloned().unwrap();
        tokio::spawn(async move {
            desk.explorer()
                .call_tool("py", &tool, arguments, format!("call-{tool}"), false)
                .await
        })
    }
}

#[tokio::test]
async fn a_server_added_through_the_form_runs_and_its_calls_wait_for_the_person() {
    let mut world = world_with_python().await;

    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&world.config).unwrap()).unwrap();
    assert!(
        written["mcpServers"]["py"]["command"]
            .as_str()
            .unwrap()
            .ends_with("python")
    );
    let listed = world.desk.servers().list();
    assert_eq!(listed.len(), 1);
    assert!(matches!(listed[0].state, Some(ServerState::Running { .. })));
    let catalog = world.desk.explorer().catalog();
    let tools = &catalog.of("py").unwrap().tools;
    assert!(tools.iter().any(|t| t.name == "echo"));

    // The person edits the arguments before allowing the call.
    let call = world.call("echo", json!({"text": "as the caller wrote it"}));
    let asked = world.asked().await;
    assert_eq!(asked.server, "py");
    let Question::ToolCall {
        tool, arguments, ..
    } = &asked.question
    else {
        panic!("asked {:?}", asked.question)
    };
    assert_eq!(
        (tool.as_str(), &arguments["text"]),
        ("echo", &json!("as the caller wrote it"))
    );
    let edited = json!({"text": "as the person edited it"})
        .as_object()
        .cloned()
        .unwrap();
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, "py", true, edited, Remember::Once)
        .unwrap();
    let result = call.await.unwrap().unwrap();
    assert_eq!(text_of(&result), "as the person edited it");

    // A denial reaches the caller as a denial.
    let call = world.call("echo", json!({"text": "no"}));
    let asked = world.asked().await;
    world
        .desk
        .trust()
        .answer_tool_call(asked.id, "py", false, Map::new(), Remember::Once)
        .unwrap();
    let denied = call.await.unwrap().unwrap_err();
    assert!(denied.to_string().contains("denied"), "{denied}");

    let audit = world.desk.activity().page(None, 10).await.unwrap();
    let decisions: Vec<&str> = audit.iter().map(|a| a.decision.as_str()).collect();
    assert_eq!(decisions, ["denied", "allowed"]);
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_call_under_way_shows_progress_and_can_be_cancelled() {
    let mut world = world_with_python().await;
    let call = world.call("slow", json!({"steps": 50, "delay_ms": 100}));
    world.allow_next().await;
    let step = world
        .next(|u| match u {
            Update::Progress { item } if item.progress >= 1.0 => Some(item),
            _ => None,
        })
        .await;
    assert_eq!((step.token.as_str(), step.total), ("call-slow", Some(50.0)));
    assert!(world.desk.explorer().cancel("call-slow"));
    let cancelled = call.await.unwrap().unwrap_err();
    assert!(cancelled.to_string().contains("cancel"), "{cancelled}");
    world
        .next(|u| {
            matches!(u, Update::ProgressEnded { token } if token == "call-slow").then_some(())
        })
        .await;
    assert!(
        !world.desk.explorer().cancel("call-slow"),
        "the call is over"
    );
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_form_answer_that_does_not_fit_is_refused_and_can_be_fixed() {
    let mut world = world_with_python().await;
    let call = world.call("ask_form", json!({}));
    world.allow_next().await;
    let form = world.asked().await;
    assert!(matches!(form.question, Question::Elicitation { .. }));

    let wrong = json!({"action": "accept", "content": {"name": "Ada", "age": "old"}});
    let refused = world
        .desk
        .trust()
        .answer_elicitation(form.id, "py", wrong)
        .unwrap_err();
    assert!(refused.to_string().contains("age"), "{refused}");
    assert_eq!(
        world.desk.trust().pending().len(),
        1,
        "the question still waits"
    );

    let fixed = json!({"action": "accept", "content": {"name": "Ada", "age": 36}});
    assert_eq!(
        world
            .desk
            .trust()
            .answer_elicitation(form.id, "py", fixed)
            .unwrap(),
        None
    );
    let result = call.await.unwrap().unwrap();
    assert!(text_of(&result).starts_with("accepted:"), "{result}");
    assert!(text_of(&result).contains("\"age\":36"), "{result}");
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_link_is_shown_with_its_secrets_masked_and_opened_whole() {
    let mut world = world_with_python().await;
    let call = world.call("ask_url", json!({}));
    world.allow_next().await;
    let asked = world.asked().await;
    let shown = |pending: &Pending| match &pending.question {
        Question::Elicitation { params } => serde_json::to_value(params).unwrap()["url"].clone(),
        other => panic!("asked {other:?}"),
    };
    assert_eq!(shown(&asked), "https://example.com/authorize?session=…");
    assert_eq!(shown(&world.desk.trust().pending()[0]), shown(&asked));
    let opened = world
        .desk
        .trust()
        .answer_elicitation(asked.id, "py", json!({"action": "accept"}))
        .unwrap();
    assert_eq!(
        opened.as_deref(),
        Some("https://example.com/authorize?session=42")
    );
    assert_eq!(text_of(&call.await.unwrap().unwrap()), "url accepted");
    world.desk.shutdown().await;
}

#[tokio::test]
async fn a_broken_configuration_is_reported_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.json");
    std::fs::write(&config, "{ \"mcpServers\": { oops").unwrap();
    let desk = Desk::open(
        &config,
        &dir.path().join("audit.sqlite"),
        Secrets::new("switchboard-test-desk"),
    )
    .unwrap();
    let problem = desk.config_problem().expect("the problem is reported");
    assert!(
        matches!(problem, ConfigProblem::Invalid { line: 1, .. }),
        "{problem}"
    );
    let refused = desk
        .servers()
        .save_server(None, python_form("py"))
        .await
        .unwrap_err();
    assert!(
        matches!(refused, ServersError::BrokenConfig(_)),
        "{refused}"
    );
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "{ \"mcpServers\": { oops"
    );
}

/// A server that answers the handshake, then ignores both the end of its input and SIGTERM:
/// only SIGKILL, seconds later, ends it.
fn slow_to_die(name: &str) -> ServerForm {
    let script = r#"
import json, os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
sys.stderr.write("pid %d\n" % os.getpid()); sys.stderr.flush()
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "initialize":
        result = {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "slow", "version": "1"}}
        print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
while True:
    time.sleep(1)
"#;
    ServerForm {
        command: "python3".into(),
        args: vec!["-c".into(), script.into()],
        // Its process id is read from outside: not in a sandbox's namespace of its own.
        sandbox: false,
        ..python_form(name)
    }
}

#[tokio::test]
async fn a_server_slow_to_die_holds_up_nothing_and_is_gone_in_bounded_time() {
    let mut world = world().await;
    world
        .desk
        .servers()
        .save_server(None, slow_to_die("slow"))
        .await
        .unwrap();
    world.running("slow").await;
    let pid: i32 = world
        .desk
        .servers()
        .log_of("slow")
        .iter()
        .find_map(|entry| entry.text.strip_prefix("pid ")?.parse().ok())
        .expect("the server wrote its pid");
    world
        .desk
        .servers()
        .set_enabled("slow", false)
        .await
        .unwrap();
    // The desk (and with it every dialog and call) is free while the server dies.
    assert!(common::alive(pid), "disabling waited for the server to die");
    world
        .next(|u| match u {
            Update::Status {
                server,
                state: ServerState::Stopped,
                ..
            } if server == "slow" => Some(()),
            _ => None,
        })
        .await;
    assert!(!common::alive(pid), "stopped, yet alive");
}

#[tokio::test]
async fn a_damaged_audit_file_is_moved_aside_and_the_desk_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.sqlite");
    std::fs::write(&audit, "garbage ".repeat(1000)).unwrap();
    let desk = Desk::open(
        &dir.path().join("config.json"),
        &audit,
        Secrets::new("switchboard-test-desk"),
    )
    .expect("the desk opens");
    let notices = desk.activity().notices();
    assert!(
        matches!(notices, [FileNotice::MovedAside(MovedAside { book: Book::AuditLog, to, .. })] if to.to_string_lossy().contains("audit.sqlite.corrupt-")),
        "{notices:?}"
    );
    assert!(desk.activity().page(None, 10).await.unwrap().is_empty());
}
