//! Model providers configured through the desk, against the stand-in provider (a child
//! process on 127.0.0.1 speaking the real protocols) and the real OS keyring (run under
//! `dbus-run-session -- scripts/with-keyring`): the key reaches the keyring and the
//! provider, never the configuration file; the provider's models are listed; what the
//! provider refuses is said in its words; a removed or renamed provider leaves no key behind.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use std::time::Duration;

use serde_json::{Value, json};
use switchboard_core::config::ProviderProtocol;
use switchboard_desk::{
    KeyChange, KeyState, ModelChoice, ModelsError, ProviderForm, ProviderFormError,
};

use crate::common;
use crate::common::{DemoDesk, desk_on, keyring};
use switchboard_test_support::stand_in::StandInProvider;

const KEY: &str = "sk-standin-models-key-0123456789";

fn script() -> Value {
    json!({
        "api_key": KEY,
        "models": [{"id": "gpt-test"}, {"id": "claude-test", "display_name": "Claude Test"}, {"id": "mini"}],
        "models_page_size": 2,
    })
}

async fn desk() -> DemoDesk {
    desk_on(json!({}), json!({}), keyring("models")).await
}

fn form(name: &str, protocol: ProviderProtocol, base_url: &str, key: KeyChange) -> ProviderForm {
    ProviderForm {
        name: name.into(),
        protocol,
        base_url: base_url.into(),
        models: Vec::new(),
        default_model: None,
        api_key: key,
    }
}

fn set(key: &str) -> KeyChange {
    KeyChange::Set { value: key.into() }
}

fn ids(models: &[ModelChoice]) -> Vec<&str> {
    models.iter().map(|m| m.id.as_str()).collect()
}

#[tokio::test]
async fn no_provider_is_a_valid_state() {
    let world = desk().await;
    let providers = world.desk.models().providers().await;
    assert!(providers.providers.is_empty());
    assert_eq!(providers.default_provider, None);
    assert!(matches!(
        world.desk.models().fetch_models("openai").await,
        Err(ModelsError::NoProvider(name)) if name == "openai"
    ));
}

#[tokio::test]
async fn a_saved_key_lives_in_the_keyring_not_the_file_and_reaches_the_provider() {
    let provider = StandInProvider::start(script()).await;
    let mut world = desk().await;
    let base = format!("{}/v1", provider.url);
    let mut saved = form("standin", ProviderProtocol::OpenAi, &base, set(KEY));
    saved.models = vec!["typed-model".into()];
    saved.default_model = Some("gpt-test".into());
    world
        .desk
        .models()
        .save_provider(None, saved)
        .await
        .unwrap();
    world
        .next(|u| matches!(u, switchboard_desk::Update::ProvidersChanged).then_some(()))
        .await;

    let text = std::fs::read_to_string(&world.config).unwrap();
    assert!(!text.contains(KEY), "the key is in the file: {text}");
    assert_eq!(
        world.file()["providers"]["standin"],
        json!({"protocol": "openai", "baseUrl": base, "models": ["typed-model"],
               "defaultModel": "gpt-test", "apiKey": {"secret": "standin/api-key"}})
    );
    assert_eq!(
        world
            .secrets
            .get("standin/api-key")
            .await
            .unwrap()
            .as_deref(),
        Some(KEY)
    );
    let listed = world.desk.models().providers().await.providers;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].key, KeyState::Stored);
    assert_eq!(listed[0].default_model.as_deref(), Some("gpt-test"));
    // What the page is given never holds the key.
    assert!(!format!("{listed:?}").contains(KEY));

    let models = world.desk.models().fetch_models("standin").await.unwrap();
    assert_eq!(ids(&models), ["claude-test", "gpt-test", "mini"]);
    let requests = provider.requests().await;
    let last = requests.last().unwrap();
    assert_eq!(last["path"], "/v1/models");
    assert_eq!(last["headers"]["authorization"], format!("Bearer {KEY}"));
}

#[tokio::test]
async fn an_anthropic_provider_gets_its_key_in_its_header_and_every_page_of_models() {
    let provider = StandInProvider::start(script()).await;
    let world = desk().await;
    let saved = form(
        "claude",
        ProviderProtocol::Anthropic,
        &provider.url,
        set(KEY),
    );
    world
        .desk
        .models()
        .save_provider(None, saved)
        .await
        .unwrap();
    let models = world.desk.models().fetch_models("claude").await.unwrap();
    assert_eq!(ids(&models), ["claude-test", "gpt-test", "mini"]);
    let claude = models.iter().find(|m| m.id == "claude-test").unwrap();
    assert_eq!(claude.display_name.as_deref(), Some("Claude Test"));
    let requests = provider.requests().await;
    assert_eq!(requests.len(), 2, "two pages: {requests:?}");
    for request in &requests {
        assert_eq!(request["headers"]["x-api-key"], KEY);
        assert!(request["headers"]["anthropic-version"].is_string());
    }
}

#[tokio::test]
async fn a_wrong_key_is_refused_in_the_providers_words_and_never_shown() {
    let provider = StandInProvider::start(script()).await;
    let world = desk().await;
    let wrong = "sk-wrong-key-abcdefghijklmnop";
    let base = format!("{}/v1", provider.url);
    let saved = form("standin", ProviderProtocol::OpenAi, &base, set(wrong));
    world
        .desk
        .models()
        .save_provider(None, saved)
        .await
        .unwrap();
    let error = world
        .desk
        .models()
        .fetch_models("standin")
        .await
        .unwrap_err();
    assert!(
        matches!(
            &error,
            ModelsError::Provider(switchboard_providers::Error::Auth {
                status: Some(401),
                ..
            })
        ),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message
            .starts_with("the provider refused the API key (HTTP 401): Incorrect API key provided"),
        "{message}"
    );
    assert!(!message.contains(wrong), "{message}");

    // Corrected before saving, the form's own key is tried; kept, the stored one.
    let mut fixed = form("standin", ProviderProtocol::OpenAi, &base, set(KEY));
    let models = world
        .desk
        .models()
        .fetch_models_for(Some("standin"), &fixed)
        .await
        .unwrap();
    assert_eq!(models.len(), 3);
    fixed.api_key = KeyChange::Keep;
    assert!(matches!(
        world
            .desk
            .models()
            .fetch_models_for(Some("standin"), &fixed)
            .await,
        Err(ModelsError::Provider(
            switchboard_providers::Error::Auth { .. }
        ))
    ));
    fixed.api_key = KeyChange::Remove;
    let none = world
        .desk
        .models()
        .fetch_models_for(Some("standin"), &fixed)
        .await
        .unwrap_err();
    assert!(
        none.to_string().contains("didn't provide an API key"),
        "{none}"
    );
}

/// A provider (or a proxy before it) that repeats the key whole in its refusal: the person
/// sees the refusal with the key taken out, in either protocol.
/// Mutation: `secret.filter(|s| s.len() >= 4)` made `secret.filter(|_| false)` in
/// `Error::redact` (`crates/providers/src/error.rs`) shows the key, and this fails.
#[tokio::test]
async fn a_key_the_provider_echoes_back_is_never_shown() {
    let mut echoing = script();
    echoing["models_error"] = json!({"kind": "unauthorized", "message": "Key {key} was revoked."});
    let provider = StandInProvider::start(echoing).await;
    let world = desk().await;
    let openai = format!("{}/v1", provider.url);
    for (protocol, base) in [
        (ProviderProtocol::OpenAi, &openai),
        (ProviderProtocol::Anthropic, &provider.url),
    ] {
        let saved = form("echoing", protocol, base, set(KEY));
        let error = world
            .desk
            .models()
            .fetch_models_for(None, &saved)
            .await
            .unwrap_err();
        let message = error.to_string();
        assert_eq!(
            message, "the provider refused the API key (HTTP 401): Key <redacted> was revoked.",
            "{protocol:?}"
        );
    }
    let echoed = provider.requests().await;
    assert_eq!(echoed.len(), 2, "the provider was asked: {echoed:?}");
}

#[tokio::test]
async fn a_rate_limit_says_how_long_to_wait_and_an_absent_provider_that_it_is_unreachable() {
    let mut limited = script();
    limited["models_error"] = json!({"kind": "rate_limited", "retry_after": "7"});
    let provider = StandInProvider::start(limited).await;
    let world = desk().await;
    let base = format!("{}/v1", provider.url);
    let saved = form("busy", ProviderProtocol::OpenAi, &base, set(KEY));
    world
        .desk
        .models()
        .save_provider(None, saved)
        .await
        .unwrap();
    let error = world.desk.models().fetch_models("busy").await.unwrap_err();
    let ModelsError::Provider(inner) = &error else {
        panic!("{error:?}")
    };
    assert_eq!(inner.retry_after(), Some(Duration::from_secs(7)));
    let message = error.to_string();
    assert!(
        message.starts_with(
            "the provider limits the rate of requests (retry after 7 s): Rate limit reached"
        ),
        "{message}"
    );

    // A port nobody listens on (the stand-in's, once it is gone).
    let gone = base.clone();
    drop(provider);
    let absent = form("absent", ProviderProtocol::OpenAi, &gone, KeyChange::Remove);
    let error = world
        .desk
        .models()
        .fetch_models_for(None, &absent)
        .await
        .unwrap_err();
    assert!(
        matches!(
            error,
            ModelsError::Provider(switchboard_providers::Error::Connection(_))
        ),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .starts_with("the provider could not be reached: could not connect"),
        "{error}"
    );
}

#[tokio::test]
async fn renaming_takes_the_key_along_and_removing_deletes_it() {
    let provider = StandInProvider::start(script()).await;
    let world = desk().await;
    let base = format!("{}/v1", provider.url);
    let desk = &world.desk;
    desk.models()
        .save_provider(
            None,
            form("first", ProviderProtocol::OpenAi, &base, set(KEY)),
        )
        .await
        .unwrap();
    desk.models()
        .set_default_provider(Some("first".into()))
        .await
        .unwrap();
    desk.models()
        .set_default_model("first", Some(" gpt-test ".into()))
        .await
        .unwrap();

    // Renamed with its key kept: the key moves to the new name, the default follows.
    let mut renamed = form("second", ProviderProtocol::OpenAi, &base, KeyChange::Keep);
    renamed.default_model = Some("gpt-test".into());
    desk.models()
        .save_provider(Some("first".into()), renamed)
        .await
        .unwrap();
    assert_eq!(world.secrets.get("first/api-key").await.unwrap(), None);
    assert_eq!(
        world
            .secrets
            .get("second/api-key")
            .await
            .unwrap()
            .as_deref(),
        Some(KEY)
    );
    let providers = desk.models().providers().await;
    assert_eq!(providers.default_provider.as_deref(), Some("second"));
    assert_eq!(providers.providers[0].name, "second");
    assert_eq!(
        providers.providers[0].default_model.as_deref(),
        Some("gpt-test")
    );
    assert_eq!(
        ids(&desk.models().fetch_models("second").await.unwrap()).len(),
        3
    );

    // A name taken is refused, and nothing changes.
    desk.models()
        .save_provider(
            None,
            form("other", ProviderProtocol::OpenAi, &base, KeyChange::Remove),
        )
        .await
        .unwrap();
    let taken = desk
        .models()
        .save_provider(
            Some("other".into()),
            form("second", ProviderProtocol::OpenAi, &base, KeyChange::Keep),
        )
        .await;
    assert!(matches!(
        taken,
        Err(ModelsError::Form(ProviderFormError::Taken(name))) if name == "second"
    ));
    assert!(matches!(
        desk.models()
            .set_default_provider(Some("nobody".into()))
            .await,
        Err(ModelsError::NoProvider(_))
    ));

    // Its key taken away: deleted from the keyring.
    desk.models()
        .save_provider(
            Some("second".into()),
            form("second", ProviderProtocol::OpenAi, &base, KeyChange::Remove),
        )
        .await
        .unwrap();
    assert_eq!(world.secrets.get("second/api-key").await.unwrap(), None);
    assert_eq!(
        desk.models().providers().await.providers[1].key,
        KeyState::None
    );

    // Given one again, then removed: the key goes with it, and the default.
    desk.models()
        .save_provider(
            Some("second".into()),
            form("second", ProviderProtocol::OpenAi, &base, set(KEY)),
        )
        .await
        .unwrap();
    assert!(world.secrets.get("second/api-key").await.unwrap().is_some());
    desk.models().remove_provider("second").await.unwrap();
    assert_eq!(world.secrets.get("second/api-key").await.unwrap(), None);
    let providers = desk.models().providers().await;
    assert_eq!(providers.default_provider, None);
    assert_eq!(ids_of(&providers.providers), ["other"]);
    assert!(world.file()["settings"].get("defaultProvider").is_none());
}

fn ids_of(providers: &[switchboard_desk::ProviderSummary]) -> Vec<&str> {
    providers.iter().map(|p| p.name.as_str()).collect()
}

#[tokio::test]
async fn a_key_the_keyring_lost_or_another_providers_key_is_shown_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let file = json!({
        "mcpServers": {},
        "providers": {
            "lost": {"protocol": "openai", "baseUrl": "http://127.0.0.1:9/v1", "apiKey": {"secret": "lost/api-key"}},
            "borrower": {"protocol": "anthropic", "baseUrl": "http://127.0.0.1:9", "apiKey": {"secret": "lost/api-key"}},
        },
    });
    std::fs::write(dir.path().join("config.json"), file.to_string()).unwrap();
    let world = common::desk_in(dir, keyring("models-lost"));
    let providers = world.desk.models().providers().await.providers;
    let state = |name: &str| providers.iter().find(|p| p.name == name).unwrap().key;
    assert_eq!(state("lost"), KeyState::Missing);
    assert_eq!(state("borrower"), KeyState::NotOwn);
    let error = world.desk.models().fetch_models("lost").await.unwrap_err();
    assert_eq!(
        error.to_string(),
        "the API key of \"lost\" is not in the keyring any more: enter it again"
    );
}
