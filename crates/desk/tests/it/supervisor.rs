//! Supervision with real child processes: a real MCP server (the Python SDK peer) that
//! crashes and comes back, a program that keeps crashing, and configuration changes.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use switchboard_core::config::{Config, RestartPolicy, ServerConfig};
use switchboard_core::fleet::{Fleet, Reconciled};
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::{Reason, ServerEvent, ServerState};
use switchboard_mcp::client::DecliningHandler;
use tokio::sync::broadcast;

fn python_peer() -> ServerConfig {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let python = root.join(".tools/venv/bin/python");
    assert!(
        python.exists(),
        "the Python test peers are missing: run scripts/setup"
    );
    ServerConfig {
        command: Some(python.display().to_string()),
        args: vec![
            root.join("tests/peers/python/server.py")
                .display()
                .to_string(),
        ],
        restart: quick_restarts(3),
        ..ServerConfig::default()
    }
}

fn quick_restarts(max_restarts: u32) -> RestartPolicy {
    RestartPolicy {
        max_restarts,
        initial_backoff_ms: 20,
        max_backoff_ms: 100,
    }
}

fn host() -> Fleet<DecliningHandler> {
    Fleet::new(Secrets::new("switchboard-test-supervisor"), |_| {
        Arc::new(DecliningHandler)
    })
}

fn config(servers: &[(&str, ServerConfig)]) -> Config {
    Config {
        servers: servers
            .iter()
            .map(|(n, s)| (n.to_string(), s.clone()))
            .collect(),
        ..Config::default()
    }
}

/// Waits for `server` to reach a state `done` accepts, returning every state it passed.
async fn states_until(
    events: &mut broadcast::Receiver<ServerEvent>,
    server: &str,
    done: impl Fn(&ServerState) -> bool,
) -> Vec<ServerState> {
    let mut seen = Vec::new();
    let wait = async {
        loop {
            if let Ok(ServerEvent::Status { server: s, state }) = events.recv().await
                && s == server
            {
                seen.push(state.clone());
                if done(&state) {
                    return;
                }
            }
        }
    };
    if tokio::time::timeout(Duration::from_secs(30), wait)
        .await
        .is_err()
    {
        panic!("{server} never reached the expected state; it went through {seen:?}");
    }
    seen
}

fn running(state: &ServerState) -> bool {
    matches!(state, ServerState::Running { .. })
}

#[tokio::test]
async fn a_server_runs_fills_the_catalog_and_comes_back_after_a_crash() {
    let mut host = host();
    let mut events = host.events();
    host.reconcile(&config(&[("py", python_peer())]));
    let seen = states_until(&mut events, "py", running).await;
    assert_eq!(seen[0], ServerState::Starting);
    assert!(
        matches!(&seen[1], ServerState::Running { server_name, .. } if server_name == "switchboard-python-peer")
    );
    // Every page of its tools, under stable ids.
    let ids: Vec<String> = host.catalog().tools().into_iter().map(|t| t.id).collect();
    assert_eq!(ids.len(), 13, "{ids:?}");
    assert!(ids.contains(&"py__echo".to_owned()));

    let client = host.client("py").expect("a live session");
    let _ = client
        .call_tool("crash", None, client.request_options())
        .await;
    let seen = states_until(&mut events, "py", running).await;
    assert!(
        matches!(&seen[0], ServerState::Restarting { attempt: 1, reason: Reason::Exited { exit, .. }, .. } if exit == "exit status: 3"),
        "{seen:?}"
    );
    assert_eq!(seen[1], ServerState::Starting);
    assert_eq!(
        host.catalog().tools().len(),
        13,
        "the catalog is filled again after the restart"
    );
    host.shutdown().await;
    assert_eq!(host.states()["py"], ServerState::Stopped);
    assert!(host.catalog().tools().is_empty());
}

#[tokio::test]
async fn a_server_that_keeps_crashing_is_given_up_on_with_the_reason() {
    let crashing = ServerConfig {
        command: Some("sh".into()),
        args: vec!["-c".into(), "echo 'fatal: no API key' >&2; exit 1".into()],
        restart: quick_restarts(2),
        ..ServerConfig::default()
    };
    let mut host = host();
    let mut events = host.events();
    host.reconcile(&config(&[("bad", crashing)]));
    let seen = states_until(&mut events, "bad", |s| {
        matches!(s, ServerState::Failed { .. })
    })
    .await;
    let restarts: Vec<u32> = seen
        .iter()
        .filter_map(|s| match s {
            ServerState::Restarting { attempt, .. } => Some(*attempt),
            _ => None,
        })
        .collect();
    assert_eq!(restarts, [1, 2]);
    let Some(
        failed @ ServerState::Failed {
            reason,
            gave_up_after,
            stderr_tail,
        },
    ) = seen.last()
    else {
        unreachable!()
    };
    assert_eq!(
        reason,
        &Reason::Exited {
            exit: "exit status: 1".into(),
            last_line: Some("fatal: no API key".into())
        }
    );
    assert_eq!(*gave_up_after, Some(2));
    assert_eq!(
        failed.why().as_deref(),
        Some(
            "the server exited (exit status: 1); last stderr line: fatal: no API key (gave up after 2 restarts)"
        )
    );
    assert_eq!(stderr_tail, &["fatal: no API key"]);
    host.shutdown().await;
}

#[tokio::test]
async fn a_server_that_cannot_start_fails_at_once_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let not_executable = dir.path().join("server.sh");
    std::fs::write(&not_executable, "#!/bin/sh\n").unwrap();
    let missing = dir.path().join("no-such-server");
    // Retrying cannot make the program appear or runnable: no restart, the reason at once.
    for (command, cause) in [
        (&missing, "No such file or directory"),
        (&not_executable, "Permission denied"),
    ] {
        let mut host = host();
        let mut events = host.events();
        let server = ServerConfig {
            command: Some(command.display().to_string()),
            restart: quick_restarts(5),
            ..ServerConfig::default()
        };
        host.reconcile(&config(&[("cannot", server)]));
        let seen = states_until(&mut events, "cannot", |s| {
            matches!(s, ServerState::Failed { .. })
        })
        .await;
        let [
            ServerState::Starting,
            ServerState::Failed {
                reason: Reason::NotStarted { program, detail },
                gave_up_after: None,
                ..
            },
        ] = &seen[..]
        else {
            panic!("{command:?} was retried: {seen:?}")
        };
        assert_eq!(program, &command.display().to_string());
        assert!(detail.contains(cause), "{detail}");
        host.shutdown().await;
    }
}

#[tokio::test]
async fn a_configuration_change_restarts_only_the_server_it_concerns() {
    let mut host = host();
    let mut events = host.events();
    let first = config(&[("a", python_peer()), ("b", python_peer())]);
    let done = host.reconcile(&first);
    assert_eq!(done.started, ["a", "b"]);
    // They start side by side: both are starting before either runs.
    let mut order = Vec::new();
    while order.iter().filter(|(_, s)| running(s)).count() < 2 {
        if let Ok(ServerEvent::Status { server, state }) = events.recv().await {
            order.push((server, state));
        }
    }
    let first_running = order.iter().position(|(_, s)| running(s)).unwrap();
    let starting = order[..first_running]
        .iter()
        .filter(|(_, s)| *s == ServerState::Starting)
        .count();
    assert_eq!(starting, 2, "{order:?}");
    let mut changed = first.clone();
    changed.servers.get_mut("b").unwrap().request_timeout_secs = Some(5);
    changed.servers.insert("c".into(), python_peer());
    changed.servers.get_mut("a").unwrap().enabled = true; // unchanged
    let done = host.reconcile(&changed);
    assert_eq!(
        done,
        Reconciled {
            started: vec!["c".into()],
            restarted: vec!["b".into()],
            stopped: vec![]
        }
    );

    let mut removed = changed.clone();
    removed.servers.remove("c");
    removed.servers.get_mut("b").unwrap().enabled = false;
    let done = host.reconcile(&removed);
    assert_eq!(done.stopped, ["b", "c"]);
    host.settled().await;
    assert!(host.client("b").is_none() && host.client("c").is_none());
    assert_eq!(host.states().keys().collect::<Vec<_>>(), ["a"]);
    host.shutdown().await;
}

/// Answers `roots/list` with what the person granted, counting the requests.
struct CountingRoots {
    roots: switchboard_core::roots::Roots,
    asked: tokio::sync::watch::Sender<usize>,
}

impl switchboard_mcp::client::ClientHandler for CountingRoots {
    async fn list_roots(
        &self,
    ) -> Result<switchboard_mcp::types::ListRootsResult, switchboard_mcp::jsonrpc::ErrorObject>
    {
        self.asked.send_modify(|n| *n += 1);
        Ok(switchboard_mcp::types::ListRootsResult::new(
            self.roots.of("everything"),
        ))
    }
}

#[tokio::test]
async fn changing_a_servers_roots_tells_it_and_it_reads_them_again() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let entry = root.join(
        "tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    assert!(
        entry.exists(),
        "server-everything is missing: run scripts/setup"
    );
    let roots = switchboard_core::roots::Roots::default();
    let (asked, mut count) = tokio::sync::watch::channel(0);
    let handler = Arc::new(CountingRoots {
        roots: roots.clone(),
        asked,
    });
    let mut host = Fleet::new(Secrets::new("switchboard-test-roots"), move |_| {
        handler.clone()
    });
    let server = ServerConfig {
        command: Some("node".into()),
        args: vec![entry.display().to_string(), "stdio".into()],
        ..ServerConfig::default()
    };
    host.reconcile(&config(&[("everything", server)]));
    let wait = |count: &mut tokio::sync::watch::Receiver<usize>, at_least: usize| {
        let mut count = count.clone();
        async move {
            tokio::time::timeout(Duration::from_secs(30), count.wait_for(|n| *n >= at_least))
                .await
                .expect("server-everything asks for roots")
                .expect("handler alive");
        }
    };
    // It asks once by itself after initialization.
    wait(&mut count, 1).await;
    let folder = tempfile::tempdir().unwrap();
    assert!(
        host.grant_roots(&roots, "everything", &[folder.path().to_owned()])
            .await
            .unwrap()
    );
    // Told of the change, it asks again.
    wait(&mut count, 2).await;
    host.shutdown().await;
}

#[tokio::test]
async fn a_server_that_asks_for_authorization_waits_in_auth_required() {
    // An HTTP server that refuses everyone with 401, as an OAuth-protected one does.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = [0; 4096];
            let _ = socket.read(&mut buf).await;
            let reply = "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
            let _ = socket.write_all(reply.as_bytes()).await;
        }
    });
    let mut host = host();
    let mut events = host.events();
    let server = ServerConfig {
        url: Some(url),
        ..ServerConfig::default()
    };
    host.reconcile(&config(&[("oauth", server)]));
    let seen = states_until(&mut events, "oauth", |s| {
        matches!(s, ServerState::AuthRequired { .. })
    })
    .await;
    assert_eq!(
        seen.len(),
        2,
        "no restarts for a server that wants authorization: {seen:?}"
    );
    host.shutdown().await;
    assert_eq!(host.states()["oauth"], ServerState::Stopped);
}
