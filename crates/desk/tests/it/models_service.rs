//! The models' service on its own, in process: its port played by a configuration held in
//! memory, the keyring real (a service of the test's own). What it decides itself is
//! checked here: a key is stored before the configuration names it, follows a renamed
//! provider, and goes with a removed one; the default follows a rename.

use std::sync::Arc;

use parking_lot::Mutex;
use switchboard_core::config::{Config, ConfigProblem, ProviderProtocol};
use switchboard_core::secrets::Secrets;
use switchboard_desk::models::{ModelsChange, ModelsHost};
use switchboard_desk::{KeyChange, KeyState, Models, ModelsError, ProviderForm};
use switchboard_mcp::transport::BoxFuture;

/// The configuration in memory; `broken` plays a file that does not read.
#[derive(Default)]
struct Memory {
    config: Mutex<Config>,
    broken: Option<ConfigProblem>,
}

impl ModelsHost for Memory {
    fn config(&self) -> Config {
        self.config.lock().clone()
    }
    fn config_problem(&self) -> Option<ConfigProblem> {
        self.broken.clone()
    }
    fn edit(&self, change: ModelsChange) -> BoxFuture<'_, Result<(), ModelsError>> {
        // Changed on a copy, kept only when the change is accepted: as the file is.
        let mut config = self.config();
        let result = change(&mut config).map(|()| *self.config.lock() = config);
        Box::pin(async move { result })
    }
}

fn form(name: &str, key: KeyChange) -> ProviderForm {
    ProviderForm {
        name: name.into(),
        protocol: ProviderProtocol::OpenAi,
        base_url: "http://127.0.0.1:11434/v1".into(),
        models: vec!["llama3.2".into()],
        default_model: None,
        api_key: key,
    }
}

fn keyring() -> Secrets {
    Secrets::new(&format!(
        "switchboard-models-service-{}",
        std::process::id()
    ))
}

#[tokio::test]
async fn a_providers_key_is_stored_first_follows_a_rename_and_goes_with_it() {
    let memory = Arc::new(Memory::default());
    let secrets = keyring();
    let models = Models::new(secrets.clone(), memory.clone());
    let key = KeyChange::Set {
        value: " sk-local ".into(),
    };
    models
        .save_provider(None, form("local", key))
        .await
        .unwrap();
    let listed = models.providers().await;
    assert_eq!(
        listed.default_provider.as_deref(),
        Some("local"),
        "the first provider added is the default"
    );
    assert_eq!(listed.providers[0].key, KeyState::Stored);
    assert_eq!(
        secrets.get("local/api-key").await.unwrap().as_deref(),
        Some("sk-local"),
        "trimmed, in the keyring"
    );

    models
        .save_provider(Some("local".into()), form("ollama", KeyChange::Keep))
        .await
        .unwrap();
    let config = memory.config();
    assert_eq!(config.providers.keys().collect::<Vec<_>>(), ["ollama"]);
    assert_eq!(config.settings.default_provider.as_deref(), Some("ollama"));
    assert_eq!(
        secrets.get("ollama/api-key").await.unwrap().as_deref(),
        Some("sk-local"),
        "the key went along"
    );
    assert_eq!(secrets.get("local/api-key").await.unwrap(), None);

    models.remove_provider("ollama").await.unwrap();
    let config = memory.config();
    assert!(config.providers.is_empty());
    assert_eq!(config.settings.default_provider, None);
    assert_eq!(secrets.get("ollama/api-key").await.unwrap(), None);
    assert!(matches!(
        models.remove_provider("ollama").await,
        Err(ModelsError::NoProvider(_))
    ));
}

#[tokio::test]
async fn nothing_is_stored_while_the_configuration_does_not_read() {
    let memory = Arc::new(Memory {
        broken: Some(ConfigProblem::Said {
            text: "line 3: expected a value".into(),
        }),
        ..Memory::default()
    });
    let secrets = keyring();
    let models = Models::new(secrets.clone(), memory.clone());
    let key = KeyChange::Set {
        value: "sk-never".into(),
    };
    let refused = models.save_provider(None, form("never", key)).await;
    assert!(
        matches!(refused, Err(ModelsError::BrokenConfig(_))),
        "{refused:?}"
    );
    assert_eq!(secrets.get("never/api-key").await.unwrap(), None);
    assert!(memory.config().providers.is_empty());
}
