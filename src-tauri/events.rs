//! Carries the desk's updates to the window, and asks for the person's attention when a
//! request waits for them while the window is in the background or closed: a desktop
//! notification that, clicked, shows the window with that request's dialog open, and the
//! count of waiting requests in the tray; and a notification when a tool call that ran as a
//! task ends while nobody is looking.

use switchboard_core::approvals::Question;
use switchboard_core::config::Language;
use switchboard_core::decisions::Origin;
use switchboard_core::traffic::TrafficEntry;
use switchboard_desk::{Desk, Update};
use tauri::{AppHandle, Manager, Runtime};
use tauri_plugin_notification::NotificationExt;
use tauri_specta::Event;
use tokio::sync::broadcast::{self, error::RecvError};

/// One change in the host, for the window to show.
#[derive(Debug, Clone, serde::Serialize, specta::Type, tauri_specta::Event)]
#[serde(transparent)]
pub struct HostUpdate(pub Update);

/// Some updates were lost on their way to the window: it fetches again what it shows.
#[derive(Debug, Clone, serde::Serialize, specta::Type, tauri_specta::Event)]
pub struct HostResync;

/// A message a server exchanged, for a traffic view that is open. Apart from the host's
/// other updates, so that a window showing no traffic listens to none of it.
#[derive(Debug, Clone, serde::Serialize, specta::Type, tauri_specta::Event)]
#[serde(transparent)]
pub struct TrafficAdded(pub TrafficEntry);

/// Some messages were lost on their way to the window: a traffic view fetches again.
#[derive(Debug, Clone, serde::Serialize, specta::Type, tauri_specta::Event)]
pub struct TrafficLost;

/// What the relay passes on to the window.
#[derive(Debug)]
enum Relayed<T> {
    Update(T),
    /// The window fell behind and missed updates.
    Lost,
}

pub fn relay<R: Runtime>(app: AppHandle<R>, desk: &Desk) {
    let app_traffic = app.clone();
    let updates = desk.updates();
    let waiting = desk.trust();
    open_clicked_requests(&app);
    tauri::async_runtime::spawn(forward(updates, move |relayed| match relayed {
        Relayed::Update(update) => {
            match &update {
                Update::ApprovalAdded { pending } => {
                    call_attention(&app, pending.id, &pending.server, &pending.question);
                    crate::tray::show_waiting(&app, waiting.waiting());
                }
                Update::TaskChanged { task } if task.result.is_some() || task.error.is_some() => {
                    task_ended(&app, task);
                }
                // The language may have changed: the tray says so.
                Update::ConfigChanged { .. } => crate::tray::speak(&app, waiting.waiting()),
                Update::ApprovalRemoved { id, .. } => {
                    // Its notification has nothing left to open.
                    if let Ok(id) = i32::try_from(*id) {
                        let _ = app.notification().remove_active(vec![id]);
                    }
                    crate::tray::show_waiting(&app, waiting.waiting());
                }
                _ => {}
            }
            let _ = HostUpdate(update).emit(&app);
        }
        Relayed::Lost => {
            crate::tray::show_waiting(&app, waiting.waiting());
            let _ = HostResync.emit(&app);
        }
    }));
    let traffic = desk.servers().traffic_updates();
    tauri::async_runtime::spawn(forward(traffic, move |relayed| match relayed {
        Relayed::Update(entry) => {
            let _ = TrafficAdded(entry).emit(&app_traffic);
        }
        Relayed::Lost => {
            let _ = TrafficLost.emit(&app_traffic);
        }
    }));
}

/// Passes each update on until the desk closes. A lost step is not lost state, but the
/// window must hear of it: a request added or answered unseen would otherwise stay hidden,
/// or stay shown, until something else makes the window fetch again.
async fn forward<T: Clone>(
    mut updates: broadcast::Receiver<T>,
    mut deliver: impl FnMut(Relayed<T>),
) {
    loop {
        match updates.recv().await {
            Ok(update) => deliver(Relayed::Update(update)),
            Err(RecvError::Lagged(missed)) => {
                tracing::debug!("the window missed {missed} updates: it fetches again");
                deliver(Relayed::Lost);
            }
            Err(RecvError::Closed) => return,
        }
    }
}

/// A click on a request's notification shows the window with that request's dialog open.
fn open_clicked_requests<R: Runtime>(app: &AppHandle<R>) {
    let handle = app.clone();
    let _ = app.notification().on_action(move |performed| {
        if performed.action_id() != "tap" {
            return;
        }
        let request = performed
            .notification()
            .and_then(|n| u64::try_from(n.id()).ok())
            .filter(|id| *id > 0);
        crate::window::present(&handle, request);
    });
}

/// A desktop notification, and the window's urgency hint, when nobody is looking. The
/// notification carries the request's id, for its click (ids past what it holds go
/// without: a click then shows the window).
fn call_attention<R: Runtime>(app: &AppHandle<R>, id: u64, server: &str, question: &Question) {
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    if window.is_focused().unwrap_or(true) {
        return;
    }
    let _ = window.request_user_attention(Some(tauri::UserAttentionType::Informational));
    let shown = app
        .notification()
        .builder()
        .id(i32::try_from(id).unwrap_or(0))
        .title(crate::speech::say(app, "notice-request-title", &[]))
        .body(as_text(&asking(app, server, question)))
        .show();
    if let Err(err) = shown {
        tracing::debug!("no desktop notification: {err}");
    }
}

/// A desktop notification that a task ended, when nobody is looking: its result waits in
/// the Tasks view (a click shows the window).
fn task_ended<R: Runtime>(app: &AppHandle<R>, task: &switchboard_desk::tasks::TaskEntry) {
    let Some(window) = app.get_webview_window("main") else {
        return;
    };
    if window.is_visible().unwrap_or(true) && window.is_focused().unwrap_or(true) {
        return;
    }
    let outcome = match (task.status.as_str(), &task.error) {
        ("cancelled", _) => "cancelled",
        (_, Some(_)) => "failed",
        _ => "done",
    };
    let body = crate::speech::say(
        app,
        "notice-task-body",
        &[
            ("outcome", outcome.into()),
            ("tool", task.tool.as_str().into()),
            ("server", task.server.as_str().into()),
        ],
    );
    let shown = app
        .notification()
        .builder()
        .title(crate::speech::say(app, "notice-task-title", &[]))
        .body(as_text(&body))
        .show();
    if let Err(err) = shown {
        tracing::debug!("no desktop notification: {err}");
    }
}

/// Who asks for what, in a line, in the app's language.
fn asking<R: Runtime>(app: &AppHandle<R>, server: &str, question: &Question) -> String {
    asked(crate::speech::language(app), server, question)
}

/// [`asking`], in `language`: the names and subjects are the server's and the agent's own.
fn asked(language: Language, server: &str, question: &Question) -> String {
    // Who asks, as named: an agent, or (for a read) whoever its origin is, in `language`.
    let (kind, who, what) = match question {
        Question::ToolCall {
            tool,
            asked_by: Origin::Agent { name },
            ..
        } => ("agent-call", name.clone(), tool.as_str()),
        Question::ToolCall { tool, .. } => ("call", String::new(), tool.as_str()),
        Question::Read { read, asked_by, .. } => {
            ("read", origin(language, asked_by), read.subject())
        }
        Question::Sampling { .. } => ("sampling", String::new(), ""),
        Question::Elicitation { .. } => ("question", String::new(), ""),
        Question::Roots => ("folders", String::new(), ""),
        Question::AgentRoots { agent, .. } => ("agent-folders", agent.clone(), ""),
        Question::SignIn { issuer_host, .. } => ("sign-in", String::new(), issuer_host.as_str()),
    };
    crate::speech::text(
        language,
        "notice-request-body",
        &[
            ("kind", kind.into()),
            ("server", server.into()),
            ("who", who.into()),
            ("what", what.into()),
        ],
    )
}

/// Who asked, in `language`.
fn origin(language: Language, asked_by: &Origin) -> String {
    let (origin, name) = match asked_by {
        Origin::Person => ("person", ""),
        Origin::Model { title, .. } => ("model", title.as_str()),
        Origin::Agent { name } => ("agent", name.as_str()),
        Origin::App { server } => ("app", server.as_str()),
    };
    crate::speech::text(
        language,
        "notice-origin",
        &[("origin", origin.into()), ("name", name.into())],
    )
}

/// `text` as a notification body shows it: notification servers read bodies as markup
/// (links, images), and a server's tool names and resource addresses are its own text.
fn as_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_servers_text_in_a_notification_is_shown_as_text_never_as_markup() {
        let question = Question::ToolCall {
            tool: "<a href=\"https://example.com\">update</a> & <img src=x>".into(),
            arguments: Default::default(),
            annotations: None,
            changed: None,
            asked_by: Origin::Agent {
                name: "Claude Code".into(),
            },
        };
        assert_eq!(
            as_text(&asked(Language::English, "files", &question)),
            "Claude Code wants files to call &lt;a href=\"https://example.com\"&gt;update&lt;/a&gt; \
             &amp; &lt;img src=x&gt;"
        );
    }

    #[test]
    fn a_notification_says_who_asks_for_what_in_the_apps_language() {
        let read = Question::Read {
            read: switchboard_core::reads::Read::Resource {
                uri: "file:///notes.md".into(),
            },
            changed: None,
            asked_by: Origin::Agent {
                name: "Claude Code".into(),
            },
        };
        assert_eq!(
            asked(Language::English, "files", &read),
            "Claude Code wants to read file:///notes.md of files"
        );
        assert_eq!(
            asked(Language::SimplifiedChinese, "files", &read),
            "Claude Code 请求读取 files 的 file:///notes.md"
        );
        assert_eq!(
            asked(Language::SimplifiedChinese, "files", &Question::Roots),
            "files 询问可以查看哪些文件夹"
        );
    }

    fn relayed(updates: broadcast::Receiver<Update>) -> Vec<Relayed<Update>> {
        let mut got = Vec::new();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        runtime.block_on(forward(updates, |r| got.push(r)));
        got
    }

    #[test]
    fn every_update_reaches_the_window_in_order() {
        let (tx, rx) = broadcast::channel(8);
        tx.send(Update::ServersChanged).expect("send");
        tx.send(Update::ProgressEnded { token: "t1".into() })
            .expect("send");
        drop(tx);
        let got = relayed(rx);
        assert!(
            matches!(
                &got[..],
                [
                    Relayed::Update(Update::ServersChanged),
                    Relayed::Update(Update::ProgressEnded { token }),
                ] if token == "t1"
            ),
            "{got:?}"
        );
    }

    #[test]
    fn a_window_that_fell_behind_is_told_to_fetch_again() {
        let (tx, rx) = broadcast::channel(2);
        for n in 0..5 {
            tx.send(Update::ProgressEnded {
                token: n.to_string(),
            })
            .expect("send");
        }
        drop(tx);
        let got = relayed(rx);
        // The three oldest were lost; the window hears so, then the two that are left.
        assert!(
            matches!(
                &got[..],
                [
                    Relayed::Lost,
                    Relayed::Update(Update::ProgressEnded { token: a }),
                    Relayed::Update(Update::ProgressEnded { token: b }),
                ] if a == "3" && b == "4"
            ),
            "{got:?}"
        );
    }
}
