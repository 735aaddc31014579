//! `switchboard-cli chat` as a person or a script uses it: the real binary on a
//! configuration of its own (the demo server, the stand-in provider with its key in the
//! real OS keyring: run under `dbus-run-session -- scripts/with-keyring`), its tool calls
//! allowed by `--allow`, refused with no one to ask, or approved on a real terminal (a
//! pseudo-terminal `script` opens); the answer on stdout, the rest on stderr, the exit
//! code, and what the app's files keep of it.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use switchboard_chat::Conversations;
use switchboard_core::audit::{AuditLog, Retention};
use switchboard_core::decisions::DecidedBy;
use switchboard_core::secrets::{SERVICE_ENV, Secrets};
use switchboard_test_support::binaries::workspace_binary;
use switchboard_test_support::stand_in::StandInProvider;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

const KEY: &str = "sk-standin-cli-chat-0123456789";
const PROMPT: &str = "Echo something for me";
/// How long a chat may take here at most, its servers' start included.
const WAIT: Duration = Duration::from_secs(90);

/// A model that calls the demo server's `echo` and then says what it answered.
fn echoing() -> Value {
    json!([
        {"content": [
            {"text": "Let me echo that. "},
            {"tool_call": {"name": "demo__echo", "arguments": {"text": "from the model"}}, "pieces": 2}
        ], "usage": {"input": 12, "output": 4}},
        {"content": [{"text": "The tool said: {tool_result}", "pieces": 3}], "usage": {"input": 30, "output": 6}}
    ])
}

/// The app's files in a folder of their own, the stand-in among its providers (its key in
/// a keyring service of its own), the demo server among its servers.
struct App {
    dir: tempfile::TempDir,
    keyring: String,
    provider: StandInProvider,
}

impl App {
    async fn with_model(turns: Value) -> Self {
        static KEYRINGS: AtomicU64 = AtomicU64::new(0);
        assert!(
            std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some(),
            "no D-Bus session: run under `dbus-run-session -- scripts/with-keyring`"
        );
        let provider = StandInProvider::start(json!({"api_key": KEY, "turns": turns})).await;
        let keyring = format!(
            "switchboard-test-cli-chat-{}-{}",
            std::process::id(),
            KEYRINGS.fetch_add(1, Ordering::Relaxed)
        );
        Secrets::new(&keyring)
            .set("standin/api-key", KEY)
            .await
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let config = json!({
            "mcpServers": {"demo": {"command": workspace_binary("switchboard-demo-server")}},
            "providers": {"standin": {
                "protocol": "openai",
                "baseUrl": format!("{}/v1", provider.url),
                "models": ["model-test"],
                "defaultModel": "model-test",
                "apiKey": {"secret": "standin/api-key"}
            }}
        });
        std::fs::write(dir.path().join("config.json"), config.to_string()).unwrap();
        Self {
            dir,
            keyring,
            provider,
        }
    }

    fn chat(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_switchboard-cli"));
        command
            .arg("chat")
            .args(args)
            .env("SWITCHBOARD_CONFIG", self.dir.path().join("config.json"))
            .env(SERVICE_ENV, &self.keyring)
            .stdin(Stdio::null())
            .kill_on_drop(true);
        command
    }

    async fn run(&self, args: &[&str]) -> Ran {
        let out = tokio::time::timeout(WAIT, self.chat(args).output())
            .await
            .expect("the chat ends")
            .unwrap();
        Ran {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// The last call in the app's audit trail: who asked, and who decided.
    async fn last_call(&self) -> (String, DecidedBy) {
        let audit =
            AuditLog::open(&self.dir.path().join("audit.sqlite"), Retention::default()).unwrap();
        let row = audit.page(None, 1).await.unwrap().remove(0);
        (row.asked_by, row.record.decided_by)
    }

    /// The conversations the app keeps, by title.
    async fn conversations(&self) -> Vec<String> {
        let kept = Conversations::open(&self.dir.path().join("conversations.sqlite")).unwrap();
        kept.list()
            .await
            .unwrap()
            .into_iter()
            .map(|c| c.title)
            .collect()
    }

    /// The body of the last request the model was sent.
    async fn last_request(&self) -> Value {
        let requests = self.provider.requests().await;
        let mut asked = requests.into_iter().filter(|r| r["method"] == "POST");
        asked.next_back().expect("the model was asked")["body"].take()
    }

    /// The tool results the model was sent in its last request.
    async fn told_the_model(&self) -> String {
        self.last_request().await["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["role"] == "tool")
            .map(|m| m["content"].to_string())
            .collect()
    }

    /// Runs `chat PROMPT` on a pseudo-terminal of its own (`script`), answering "y" to the
    /// first question it asks there: what the terminal showed, how the chat ended, and
    /// whether it asked.
    async fn on_terminal(&self, prompt: &str) -> (String, std::process::ExitStatus, bool) {
        let chat = self.chat(&[prompt]);
        let line = format!(
            "{} chat '{prompt}'",
            chat.as_std().get_program().to_string_lossy()
        );
        let mut terminal = Command::new("script");
        terminal
            .args(["-qec", &line, "/dev/null"])
            .envs(chat.as_std().get_envs().filter_map(|(k, v)| Some((k, v?))))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true);
        let mut running = terminal.spawn().unwrap();
        let mut keys = running.stdin.take().unwrap();
        let mut screen = running.stdout.take().unwrap();
        let mut shown = String::new();
        let mut buffer = [0u8; 4096];
        let mut answered = false;
        tokio::time::timeout(WAIT, async {
            loop {
                let read = screen.read(&mut buffer).await.unwrap();
                if read == 0 {
                    break;
                }
                shown.push_str(&String::from_utf8_lossy(&buffer[..read]));
                if !answered && shown.contains("Allow it? [y]es once, [a]lways, [n]o:") {
                    keys.write_all(b"y\n").await.unwrap();
                    answered = true;
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("the chat ends; the terminal showed {shown}"));
        (shown, running.wait().await.unwrap(), answered)
    }
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

#[tokio::test]
async fn a_tool_the_command_line_allows_runs_and_the_answer_streams_out() {
    let app = App::with_model(echoing()).await;
    let ran = app.run(&["--allow", "demo__echo", PROMPT]).await;
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert_eq!(
        ran.stdout, "Let me echo that. \nThe tool said: from the model\n",
        "the answer alone on stdout, a line for each round"
    );
    assert!(
        ran.stderr
            .contains("[tool] the model calls echo of demo with {\"text\":\"from the model\"}"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr
            .contains("[tool] echo of demo is allowed by --allow")
    );
    assert!(ran.stderr.contains("[stop] the model finished its answer"));
    assert!(
        ran.stderr.contains("[usage] 42 tokens in, 10 out"),
        "both rounds counted: {}",
        ran.stderr
    );

    // Kept with the app's conversations, and named so in its audit trail.
    assert_eq!(app.conversations().await, [PROMPT]);
    assert_eq!(
        app.last_call().await,
        (
            format!("model in conversation “{PROMPT}”"),
            DecidedBy::Person
        )
    );
}

#[tokio::test]
async fn a_call_no_one_can_approve_is_refused_and_the_model_is_told() {
    let app = App::with_model(echoing()).await;
    let ran = app.run(&[PROMPT]).await;
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(
        ran.stderr.contains(
            "no terminal is attached to ask about echo of demo, and no --allow demo__echo"
        ),
        "the person is told how to allow it: {}",
        ran.stderr
    );
    assert!(
        ran.stderr
            .contains("[tool] echo of demo was refused (no one to ask)")
    );
    let told = app.told_the_model().await;
    assert!(told.contains("no one to approve it"), "{told}");
    assert!(
        ran.stdout.contains("no one to approve it") && !ran.stdout.contains("from the model"),
        "{}",
        ran.stdout
    );
    assert_eq!(
        app.last_call().await,
        (
            format!("model in conversation “{PROMPT}”"),
            DecidedBy::NoOneToAsk
        )
    );
}

#[tokio::test]
async fn a_call_is_approved_on_the_terminal() {
    let app = App::with_model(echoing()).await;
    let (shown, status, answered) = app.on_terminal(PROMPT).await;
    assert!(answered, "the terminal asked: {shown}");
    assert!(
        shown.contains("The model wants to call echo of demo with {\"text\":\"from the model\"}"),
        "{shown}"
    );
    assert!(shown.contains("[tool] you allowed echo of demo"), "{shown}");
    assert!(shown.contains("The tool said: from the model"), "{shown}");
    assert!(status.success(), "{shown}");
    assert_eq!(
        app.last_call().await,
        (
            format!("model in conversation “{PROMPT}”"),
            DecidedBy::Person
        )
    );
}

#[tokio::test]
async fn an_answer_cut_at_the_token_limit_says_so_and_exits_3() {
    let app = App::with_model(json!([
        {"content": [{"text": "The first part of a long"}], "stop": "max_tokens"}
    ]))
    .await;
    let ran = app
        .run(&["--max-tokens", "7", "Tell me a long story"])
        .await;
    assert_eq!(ran.code, Some(3), "{}", ran.stderr);
    assert_eq!(ran.stdout, "The first part of a long\n");
    assert!(
        ran.stderr.contains(
            "[stop] the answer was cut off at the most tokens it may take (--max-tokens)"
        ),
        "{}",
        ran.stderr
    );
    let body = app.last_request().await;
    let limit = body["max_completion_tokens"]
        .as_u64()
        .or(body["max_tokens"].as_u64());
    assert_eq!(limit, Some(7), "{body}");
}

#[tokio::test]
async fn without_a_model_it_says_where_to_add_one() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.json"), r#"{"mcpServers": {}}"#).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_switchboard-cli"))
        .args(["chat", "Hello"])
        .env("SWITCHBOARD_CONFIG", dir.path().join("config.json"))
        .stdin(Stdio::null())
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "switchboard-cli: no model is configured: add a model on the Models page\n"
    );
    assert!(out.stdout.is_empty());
}

#[tokio::test]
async fn a_read_by_the_model_is_asked_on_the_terminal_and_refused_without_one() {
    let reading = json!([
        {"content": [{"tool_call": {"name": "switchboard_read_resource",
            "arguments": {"server": "demo", "uri": "demo://readme"}}}]},
        {"content": [{"text": "The readme: {tool_result}"}]}
    ]);
    let turns: Vec<Value> = [reading.clone(), reading]
        .into_iter()
        .flat_map(|turns| turns.as_array().unwrap().clone())
        .collect();
    let app = App::with_model(json!(turns)).await;
    let ran = app.run(&["What does the readme say?"]).await;
    assert_eq!(ran.code, Some(0), "{}", ran.stderr);
    assert!(
        ran.stderr.contains(
            "[read] no terminal is attached to ask about reading demo://readme of demo: refused"
        ),
        "{}",
        ran.stderr
    );
    assert!(
        !ran.stdout.contains("# The Switchboard demo server"),
        "{}",
        ran.stdout
    );

    let (shown, status, answered) = app.on_terminal("And now?").await;
    assert!(answered && status.success(), "{shown}");
    assert!(
        shown.contains("The model wants to read demo://readme of demo"),
        "{shown}"
    );
    assert!(
        shown.contains("[read] you allowed reading demo://readme of demo"),
        "{shown}"
    );
    assert!(
        shown.contains("The readme: [resource demo://readme]")
            && shown.contains("Switchboard demo server"),
        "{shown}"
    );
}
