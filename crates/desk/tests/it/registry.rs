//! Servers from the MCP Registry, against its stand-in on 127.0.0.1 (whose every answer is
//! checked against the registry's published OpenAPI document): listed by pages, searched,
//! and each kind of entry composed into the server entry the person reviews, saved only
//! through the form's own path: untrusted, its secrets in the keyring.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::collections::BTreeMap;

use serde_json::json;
use switchboard_core::registry::{ListQuery, RegistryServer, Way};
use switchboard_desk::{RegistryAdd, ServersError};
use switchboard_test_support::registry::RegistryStandIn;

use crate::common::{DemoDesk, HttpPeer, desk_in, keyring};

/// A desk (not started) whose settings point at `registry`.
fn desk_on_registry(registry: &str) -> DemoDesk {
    let dir = tempfile::tempdir().unwrap();
    let file = json!({"mcpServers": {}, "settings": {"registryUrl": registry}});
    std::fs::write(dir.path().join("config.json"), file.to_string()).unwrap();
    desk_in(dir, keyring("registry"))
}

fn search(text: &str) -> ListQuery {
    ListQuery {
        search: text.into(),
        cursor: None,
    }
}

async fn find(world: &DemoDesk, name: &str) -> RegistryServer {
    let page = world
        .desk
        .servers()
        .registry_servers(&search(name))
        .await
        .unwrap();
    page.servers.into_iter().find(|s| s.name == name).unwrap()
}

fn answers(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).into(), (*v).into()))
        .collect()
}

fn add(server: RegistryServer, way: Way, name: &str, pairs: &[(&str, &str)]) -> RegistryAdd {
    RegistryAdd {
        server,
        way,
        name: name.into(),
        answers: answers(pairs),
    }
}

#[tokio::test]
async fn the_registry_is_listed_page_by_page_in_latest_versions_and_searched_by_name() {
    let registry = RegistryStandIn::start_with(&["--page-size", "2"]);
    let world = desk_on_registry(&registry.url);
    let mut names = Vec::new();
    let mut query = search("");
    let mut pages = 0;
    loop {
        let page = world.desk.servers().registry_servers(&query).await.unwrap();
        assert!(page.unreadable.is_empty(), "{:?}", page.unreadable);
        assert!(
            page.servers.len() <= 2,
            "a page holds what the registry sent"
        );
        names.extend(
            page.servers
                .iter()
                .map(|s| format!("{} {}", s.name, s.version)),
        );
        pages += 1;
        match page.next_cursor {
            Some(cursor) => query.cursor = Some(cursor),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(
        names,
        [
            "io.github.acme-labs/weather 1.4.2",
            "io.github.pyfolk/sqlite-explorer 0.9.1",
            "io.github.containers-co/postgres 2.0.0",
            "com.example/tickets 3.1.0",
            "com.example/status-feed 1.0.0",
        ],
        "each server once, in its latest version"
    );
    let found = world
        .desk
        .servers()
        .registry_servers(&search("weather"))
        .await
        .unwrap();
    let found: Vec<_> = found
        .servers
        .iter()
        .map(|s| (&*s.name, &*s.version))
        .collect();
    assert_eq!(found, [("io.github.acme-labs/weather", "1.4.2")]);
    assert_eq!(registry.answered("search=weather"), 1);
}

#[tokio::test]
async fn an_npm_server_is_composed_with_its_variables_and_saved_untrusted_with_its_secret_in_the_keyring()
 {
    let registry = RegistryStandIn::start();
    let world = desk_on_registry(&registry.url);
    let weather = find(&world, "io.github.acme-labs/weather").await;
    let proposal = world
        .desk
        .servers()
        .install_proposal(weather.clone(), Way::Package(0))
        .unwrap();
    assert_eq!(proposal.name, "weather");
    let asked: Vec<_> = proposal
        .prompts
        .iter()
        .map(|p| (&*p.id, p.input.is_secret, p.input.is_required))
        .collect();
    assert_eq!(
        asked,
        [
            ("arg:0", false, false),
            ("env:WEATHER_API_KEY", true, true),
            ("env:WEATHER_REGION", false, false),
        ]
    );
    let missing = world
        .desk
        .servers()
        .compose_install(&add(weather.clone(), Way::Package(0), "weather", &[]))
        .unwrap_err();
    assert_eq!(
        missing.to_string(),
        "environment variable WEATHER_API_KEY needs a value"
    );
    let form = world
        .desk
        .servers()
        .compose_install(&add(
            weather,
            Way::Package(0),
            "weather",
            &[("env:WEATHER_API_KEY", "wk-123"), ("arg:0", "imperial")],
        ))
        .unwrap();
    assert_eq!(form.command, "npx");
    assert_eq!(
        form.args,
        ["-y", "@acme-labs/weather-mcp@1.4.2", "--units", "imperial"]
    );
    assert!(!form.trusted);
    assert_eq!(
        world.file()["mcpServers"],
        json!({}),
        "nothing saved by itself"
    );

    world.desk.servers().save_server(None, form).await.unwrap();
    let saved = &world.file()["mcpServers"]["weather"];
    assert_eq!(
        saved["env"],
        json!({
            "WEATHER_API_KEY": {"secret": "weather/env/WEATHER_API_KEY"},
            "WEATHER_REGION": "eu-west",
        })
    );
    assert!(!world.file().to_string().contains("wk-123"));
    assert_eq!(
        world
            .secrets
            .get("weather/env/WEATHER_API_KEY")
            .await
            .unwrap(),
        Some("wk-123".into())
    );
    assert!(saved.get("trusted").is_none(), "untrusted: {saved}");
}

#[tokio::test]
async fn a_pypi_and_an_oci_server_are_composed_into_uvx_and_docker_run() {
    let registry = RegistryStandIn::start();
    let world = desk_on_registry(&registry.url);
    let sqlite = find(&world, "io.github.pyfolk/sqlite-explorer").await;
    let form = world
        .desk
        .servers()
        .compose_install(&add(
            sqlite,
            Way::Package(0),
            "sqlite",
            &[("arg:0", "/home/me/notes.db")],
        ))
        .unwrap();
    assert_eq!(
        (form.command.as_str(), form.args),
        (
            "uvx",
            vec![
                "sqlite-explorer-mcp==0.9.1".into(),
                "/home/me/notes.db".into()
            ]
        )
    );

    let postgres = find(&world, "io.github.containers-co/postgres").await;
    let form = world
        .desk
        .servers()
        .compose_install(&add(
            postgres,
            Way::Package(0),
            "postgres",
            &[("env:DATABASE_URL", "postgres://me:pw@localhost/db")],
        ))
        .unwrap();
    assert_eq!(form.command, "docker");
    assert_eq!(
        form.args,
        [
            "run",
            "-i",
            "--rm",
            "-e",
            "DATABASE_URL",
            "ghcr.io/containers-co/postgres-mcp:2.0.0"
        ],
        "docker passes the variable on into the container"
    );
    let env: Vec<_> = form.env.iter().map(|v| (&*v.key, v.secret)).collect();
    assert_eq!(env, [("DATABASE_URL", true)]);
}

#[tokio::test]
async fn a_remote_server_is_composed_with_its_address_and_headers() {
    let registry = RegistryStandIn::start();
    let world = desk_on_registry(&registry.url);
    let tickets = find(&world, "com.example/tickets").await;
    let proposal = world
        .desk
        .servers()
        .install_proposal(tickets.clone(), Way::Remote(0))
        .unwrap();
    let ids: Vec<_> = proposal.prompts.iter().map(|p| &*p.id).collect();
    assert_eq!(ids, ["header:Authorization:token", "header:X-Desk"]);
    let form = world
        .desk
        .servers()
        .compose_install(&add(
            tickets,
            Way::Remote(0),
            "tickets",
            &[("header:Authorization:token", "tk-9")],
        ))
        .unwrap();
    assert_eq!(form.url, format!("{}/tickets/mcp", registry.url));
    let headers: Vec<_> = form
        .headers
        .iter()
        .map(|h| (&*h.key, &*h.value, h.secret))
        .collect();
    assert_eq!(
        headers,
        [
            ("Authorization", "Bearer tk-9", true),
            ("X-Desk", "support", false)
        ]
    );

    let feed = find(&world, "com.example/status-feed").await;
    let form = world
        .desk
        .servers()
        .compose_install(&add(
            feed.clone(),
            Way::Remote(0),
            "feed",
            &[("url:tenant", "acme")],
        ))
        .unwrap();
    assert_eq!(form.url, "https://acme.status.example.com/sse");
    let refused = world
        .desk
        .servers()
        .compose_install(&add(
            feed,
            Way::Remote(0),
            "feed",
            &[("url:tenant", "a/b c")],
        ))
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "tenant in the address may hold only letters, digits and - . _ ~"
    );
    assert!(matches!(refused, ServersError::Install(_)));
}

#[tokio::test]
async fn an_answer_that_is_not_the_registrys_is_said_plainly_and_loses_nothing() {
    let broken = RegistryStandIn::start_with(&["--broken"]);
    let world = desk_on_registry(&broken.url);
    let page = world
        .desk
        .servers()
        .registry_servers(&search(""))
        .await
        .unwrap();
    assert!(page.servers.is_empty());
    assert_eq!(page.unreadable.len(), 1, "{:?}", page.unreadable);
    assert_eq!(
        page.unreadable[0].to_string(),
        "entry 1: server.version: invalid type: integer `2`, expected a string",
        "says which entry, where, and what is wrong"
    );

    // An MCP server, not a registry: the address a person might mistake for one.
    let server = HttpPeer::start().await;
    let origin = server.url.trim_end_matches("/mcp");
    let world = desk_on_registry(origin);
    let before = std::fs::read_to_string(&world.config).unwrap();
    let err = world
        .desk
        .servers()
        .registry_servers(&search(""))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "the answer of {origin}/v0.1/servers?version=latest&limit=30 is not the \
             registry's API: it has no /v0.1/servers (404 Not Found)"
        )
    );
    assert_eq!(std::fs::read_to_string(&world.config).unwrap(), before);

    let world = desk_on_registry("ftp://registry.example");
    let err = world
        .desk
        .servers()
        .registry_servers(&search(""))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the registry address \"ftp://registry.example\" is not an http:// or https:// URL"
    );
}

#[tokio::test]
async fn an_install_link_names_a_server_of_the_registry_of_the_settings_only() {
    let registry = RegistryStandIn::start();
    let world = desk_on_registry(&registry.url);
    let server = world
        .desk
        .servers()
        .install_link("switchboard://install?name=io.github.acme-labs%2Fweather&version=1.3.0")
        .await
        .unwrap();
    assert_eq!(
        (&*server.name, &*server.version),
        ("io.github.acme-labs/weather", "1.3.0")
    );
    assert_eq!(
        registry.answered("/v0.1/servers/io.github.acme-labs%2Fweather/versions/1.3.0"),
        1
    );
    let refused = world
        .desk
        .servers()
        .install_link("switchboard://install?name=a.b/c&registry=http://127.0.0.1:9")
        .await
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "the link says \"registry\", which no install link says: it is not followed"
    );
    let absent = world
        .desk
        .servers()
        .install_link("switchboard://install?name=com.example/nothing")
        .await
        .unwrap_err();
    assert_eq!(
        absent.to_string(),
        "the registry has no server \"com.example/nothing\" in version latest"
    );
}

#[tokio::test]
async fn a_registry_that_sends_the_app_to_another_site_is_not_followed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // An HTTP server on 127.0.0.1 that answers every request with a redirect elsewhere.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request).await;
            let answer = "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.2:9/v0.1/servers\r\n\
                          Content-Length: 0\r\nConnection: close\r\n\r\n";
            let _ = stream.write_all(answer.as_bytes()).await;
        }
    });
    let world = desk_on_registry(&origin);
    let err = world
        .desk
        .servers()
        .registry_servers(&search(""))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "the registry at {origin}/v0.1/servers?version=latest&limit=30 sent you on to \
             another site (http://127.0.0.2:9/v0.1/servers), which is not followed"
        )
    );
}
