//! Model providers as the person configures them: the list (each key shown as stored or
//! not, never its value), adding, editing, renaming and removing one, the models a provider
//! offers, and which provider and model are asked by default.
//!
//! A provider's API key lives only in the OS keyring, under `<provider>/api-key`; the
//! configuration names it. A new key is stored before the file names it, and a key no
//! longer named (its provider removed, renamed, or its key taken away) is deleted once the
//! file is written. A provider uses only the key of its own name.
//!
//! The models' service keeps the keyring it is given and reaches the configuration through
//! its port ([`ModelsHost`]), which the desk implements.

mod host;

pub use host::{ModelsChange, ModelsHost};

use std::fmt;

use serde::{Deserialize, Serialize};
use switchboard_providers::{
    ApiKey, Client, Learned, OpenAiOptions, Profile, Protocol, ProviderConfig,
};

use std::collections::HashMap;
use std::sync::Arc;

use crate::given::Given;
use crate::keeps::{Keeping, Keeps};
use switchboard_core::config::{
    Config, ConfigError, ModelPrice, ProviderEntry, ProviderProtocol, SecretRef, provider_key_name,
};
use switchboard_core::secrets::{SecretError, Secrets};

/// Whether a provider's API key is there, never what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum KeyState {
    /// The provider is configured without a key (a local server, say).
    None,
    /// The key is in the keyring.
    Stored,
    /// The file names a key the keyring does not hold: enter it again.
    Missing,
    /// The file names a secret that is not this provider's own: it is not used.
    NotOwn,
    /// The keyring could not be asked.
    Unknown,
}

/// A configured provider, as the Models page lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ProviderSummary {
    pub name: String,
    pub protocol: ProviderProtocol,
    pub base_url: String,
    /// The model ids the person typed (the provider's own list is fetched on demand).
    pub models: Vec<String>,
    pub default_model: Option<String>,
    pub key: KeyState,
    /// What the person pays for its models' tokens, by model id.
    pub prices: std::collections::BTreeMap<String, ModelPrice>,
    /// What each model takes as the person said it or its refusals taught, by model id.
    pub profiles: std::collections::BTreeMap<String, Profile>,
    /// What the names of its models tell of them (the models typed, priced or profiled).
    pub known: std::collections::BTreeMap<String, Profile>,
}

/// Every configured provider, and the one asked by default.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct Providers {
    pub providers: Vec<ProviderSummary>,
    pub default_provider: Option<String>,
}

/// What to do with a provider's API key on saving.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum KeyChange {
    /// Keep the stored key, if any (a renamed provider takes it along).
    Keep,
    /// Store this key in the keyring.
    Set { value: String },
    /// No key: the stored one is deleted.
    Remove,
}

impl fmt::Debug for KeyChange {
    /// A key is never printed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Keep => f.write_str("Keep"),
            Self::Set { .. } => f.write_str("Set(..)"),
            Self::Remove => f.write_str("Remove"),
        }
    }
}

/// A provider's settings as the person edits them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ProviderForm {
    pub name: String,
    pub protocol: ProviderProtocol,
    pub base_url: String,
    /// Model ids typed by the person; blank ones are dropped.
    #[serde(default)]
    pub models: Vec<String>,
    /// Picked from the fetched list or typed; blank is none.
    #[serde(default)]
    pub default_model: Option<String>,
    pub api_key: KeyChange,
}

/// A model a provider offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ModelChoice {
    pub id: String,
    /// A name for people, when the provider gives one.
    pub display_name: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderFormError {
    #[error("a provider needs a name")]
    NoName,
    #[error("the name {0:?} may hold only letters, digits, '-', '_' and '.'")]
    BadName(String),
    #[error("a provider named {0:?} already exists")]
    Taken(String),
    #[error("{0:?} is not an http:// or https:// URL")]
    BadUrl(String),
    #[error("the API key is empty: enter it, or keep the stored one")]
    EmptyKey,
    #[error("the API key of {0:?} is not in the keyring any more: enter it again")]
    KeyGone(String),
    #[error("the provider {0:?} changed in the configuration file meanwhile; open it again")]
    Changed(String),
    #[error(transparent)]
    Keyring(switchboard_core::secrets::SecretError),
}

#[derive(Debug, thiserror::Error)]
pub enum ModelsError {
    #[error("there is no model provider named {0:?}")]
    NoProvider(String),
    #[error(transparent)]
    Form(#[from] ProviderFormError),
    /// What the provider answered, or why it could not be reached, in its own words.
    #[error(transparent)]
    Provider(#[from] switchboard_providers::Error),
    #[error("the configuration file must be fixed first: {0}")]
    BrokenConfig(switchboard_core::config::ConfigProblem),
    #[error("a price is a number of dollars per million tokens, 0 or more")]
    BadPrice,
    #[error("a price is for a model: name it")]
    PriceUnnamed,
    #[error("a model's context and longest answer are a number of tokens, 1 or more")]
    BadProfile,
    #[error("a profile is of a model: name it")]
    ProfileUnnamed,
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("Switchboard is shutting down")]
    ShuttingDown,
}

impl crate::EditError for ModelsError {
    fn broken(problem: switchboard_core::config::ConfigProblem) -> Self {
        Self::BrokenConfig(problem)
    }
}

/// Cheap to clone; every clone is the same service.
#[derive(Clone)]
pub struct Models {
    secrets: Secrets,
    host: Arc<dyn ModelsHost>,
    /// What each provider's refusals taught, by provider: shared by its clients from one
    /// request to the next, until it is kept in the file.
    learned: Arc<parking_lot::Mutex<HashMap<String, Learned>>>,
    _keeps: Keeps,
}

impl Keeping for Models {
    fn keeps(&mut self) -> &mut Keeps {
        &mut self._keeps
    }
}

impl Models {
    /// The service over the keyring the providers' keys are kept in.
    pub fn new(secrets: Secrets, host: Arc<dyn ModelsHost>) -> Self {
        Self {
            secrets,
            host,
            learned: Arc::default(),
            _keeps: Keeps::default(),
        }
    }
}

fn keyring(e: SecretError) -> ProviderFormError {
    ProviderFormError::Keyring(e)
}

/// Checks a provider's name: the same characters as a server's.
fn valid_name(name: &str) -> Result<(), ProviderFormError> {
    if name.is_empty() {
        return Err(ProviderFormError::NoName);
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return Err(ProviderFormError::BadName(name.to_owned()));
    }
    Ok(())
}

fn valid_url(url: &str) -> Result<String, ProviderFormError> {
    let url = url.trim();
    match url::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") && parsed.has_host() => {
            Ok(url.to_owned())
        }
        _ => Err(ProviderFormError::BadUrl(url.to_owned())),
    }
}

/// The configuration a form describes, on top of `previous` (whose settings the form does
/// not show are kept); its key, if any, named as the form's provider's own.
fn apply_form(
    form: &ProviderForm,
    previous: Option<&ProviderEntry>,
    has_key: bool,
) -> Result<ProviderEntry, ProviderFormError> {
    valid_name(&form.name)?;
    let base_url = valid_url(&form.base_url)?;
    let mut models: Vec<String> = Vec::new();
    for model in &form.models {
        let model = model.trim();
        if !model.is_empty() && !models.iter().any(|m| m == model) {
            models.push(model.to_owned());
        }
    }
    let default_model = form
        .default_model
        .as_deref()
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_owned);
    let mut entry = previous.cloned().unwrap_or_else(|| ProviderEntry {
        protocol: form.protocol,
        base_url: String::new(),
        models: Vec::new(),
        default_model: None,
        api_key: None,
        prices: Default::default(),
        profiles: Default::default(),
        extra: serde_json::Map::new(),
    });
    entry.protocol = form.protocol;
    entry.base_url = base_url;
    entry.models = models;
    entry.default_model = default_model;
    entry.api_key = has_key.then(|| SecretRef {
        secret: provider_key_name(&form.name),
    });
    Ok(entry)
}

/// Checks that `name` is free (or the provider's own) and takes out of `config` the
/// provider `original`, if any.
fn take_replaced(
    config: &mut Config,
    original: Option<&str>,
    name: &str,
) -> Result<Option<ProviderEntry>, ModelsError> {
    if config.providers.contains_key(name) && original != Some(name) {
        return Err(ProviderFormError::Taken(name.to_owned()).into());
    }
    original
        .map(|original| {
            config
                .providers
                .remove(original)
                .ok_or_else(|| ModelsError::NoProvider(original.to_owned()))
        })
        .transpose()
}

/// How to reach a provider with this key. OpenAI's own API takes its newer field for the
/// number of tokens; other OpenAI-compatible servers the usual one.
fn provider_config(
    protocol: ProviderProtocol,
    base_url: &str,
    key: Option<ApiKey>,
) -> ProviderConfig {
    match protocol {
        ProviderProtocol::Anthropic => ProviderConfig::anthropic(base_url, key),
        ProviderProtocol::OpenAiResponses => {
            ProviderConfig::new(Protocol::Responses, base_url, key)
        }
        ProviderProtocol::OpenAi => {
            let official = url::Url::parse(base_url)
                .ok()
                .is_some_and(|u| u.host_str() == Some("api.openai.com"));
            let options = if official {
                OpenAiOptions::openai()
            } else {
                OpenAiOptions::default()
            };
            ProviderConfig::new(Protocol::OpenAi(options), base_url, key)
        }
    }
}

impl Models {
    /// Every configured provider, with whether its key is stored.
    pub async fn providers(&self) -> Providers {
        let config = self.host.config();
        let mut providers = Vec::with_capacity(config.providers.len());
        for (name, entry) in &config.providers {
            let key = match (&entry.api_key, entry.own_key(name)) {
                (None, _) => KeyState::None,
                (Some(_), None) => KeyState::NotOwn,
                (Some(_), Some(secret)) => match self.secrets.get(secret).await {
                    Ok(Some(_)) => KeyState::Stored,
                    Ok(None) => KeyState::Missing,
                    Err(e) => {
                        tracing::warn!("the key of the provider {name:?}: {e}");
                        KeyState::Unknown
                    }
                },
            };
            providers.push(ProviderSummary {
                name: name.clone(),
                protocol: entry.protocol,
                base_url: entry.base_url.clone(),
                models: entry.models.clone(),
                default_model: entry.default_model.clone(),
                key,
                prices: entry.prices.clone(),
                profiles: entry.profiles.clone(),
                known: known_profiles(entry),
            });
        }
        Providers {
            providers,
            default_provider: config.settings.default_provider,
        }
    }

    fn provider_entry(&self, name: &str) -> Result<ProviderEntry, ModelsError> {
        self.host
            .config()
            .providers
            .get(name)
            .cloned()
            .ok_or_else(|| ModelsError::NoProvider(name.to_owned()))
    }

    /// The stored key of the provider `name` as configured in `entry`: its own only.
    async fn stored_key(
        &self,
        name: &str,
        entry: &ProviderEntry,
    ) -> Result<Option<String>, ModelsError> {
        let Some(secret) = entry.own_key(name) else {
            return Ok(None);
        };
        let key = self.secrets.get(secret).await.map_err(keyring)?;
        key.map(Some)
            .ok_or_else(|| ProviderFormError::KeyGone(name.to_owned()).into())
    }

    /// Adds a provider (`original` None) or changes one, possibly renaming it. A new key
    /// goes to the keyring first (a renamed provider's key is copied to its new name), so
    /// that the file never names a key not stored; once the file is written, a key the
    /// provider no longer uses is deleted. A renamed default provider stays the default.
    pub async fn save_provider(
        &self,
        original: Option<String>,
        form: ProviderForm,
    ) -> Result<(), ModelsError> {
        if let Some(problem) = self.host.config_problem() {
            return Err(ModelsError::BrokenConfig(problem));
        }
        let original = original.as_deref();
        let name = form.name.trim().to_owned();
        let form = ProviderForm { name, ..form };
        let previous = take_replaced(&mut self.host.config(), original, &form.name)?;
        // What the key will be, checked before anything is stored.
        let value = match &form.api_key {
            KeyChange::Set { value } if value.trim().is_empty() => {
                return Err(ProviderFormError::EmptyKey.into());
            }
            KeyChange::Set { value } => Some(value.trim().to_owned()),
            KeyChange::Remove => None,
            KeyChange::Keep => match (original, &previous) {
                (Some(original), Some(previous)) => self.stored_key(original, previous).await?,
                _ => None,
            },
        };
        apply_form(&form, previous.as_ref(), value.is_some())?;
        let new_secret = provider_key_name(&form.name);
        let renamed = original.is_some_and(|o| o != form.name);
        // The keyring already holds a kept key under the same name.
        let store = matches!(form.api_key, KeyChange::Set { .. }) || renamed;
        if let (Some(value), true) = (&value, store) {
            self.secrets
                .set(&new_secret, value)
                .await
                .map_err(keyring)?;
        }
        let (asked, replacing, seen, has_key) = (
            form.clone(),
            original.map(ToOwned::to_owned),
            previous.clone(),
            value.is_some(),
        );
        // The provider as the file held it when it was replaced.
        let taken = Given::new();
        self.host
            .edit(Box::new(taken.keeping(move |config: &mut Config| {
                let (form, original) = (asked, replacing.as_deref());
                let again = take_replaced(config, original, &form.name)?;
                // Read afresh, the provider's key may no longer be the one seen above.
                let key_of = |e: &Option<ProviderEntry>| e.as_ref().map(|e| e.api_key.clone());
                if key_of(&again) != key_of(&seen) {
                    let name = original.unwrap_or(&form.name);
                    return Err(ProviderFormError::Changed(name.to_owned()).into());
                }
                let entry = apply_form(&form, again.as_ref(), has_key)?;
                if let Some(original) = original
                    && config.settings.default_provider.as_deref() == Some(original)
                {
                    config.settings.default_provider = Some(form.name.clone());
                }
                // The first provider added is the one asked when nothing says which.
                if config.providers.is_empty() && config.settings.default_provider.is_none() {
                    config.settings.default_provider = Some(form.name.clone());
                }
                config.providers.insert(form.name, entry);
                Ok(again)
            })))
            .await?;
        let replaced = taken.take().flatten();
        // The key the provider owned before, if it no longer names it.
        if let (Some(original), Some(before)) = (original, replaced)
            && let Some(old) = before.own_key(original)
            && (renamed || value.is_none())
        {
            let _ = self.secrets.delete(old).await;
        }
        Ok(())
    }

    /// Removes a provider and deletes its key; if it was the default, there is none.
    pub async fn remove_provider(&self, name: &str) -> Result<(), ModelsError> {
        let gone = name.to_owned();
        let taken = Given::new();
        self.host
            .edit(Box::new(taken.keeping(move |config: &mut Config| {
                let removed = config
                    .providers
                    .remove(&gone)
                    .ok_or_else(|| ModelsError::NoProvider(gone.clone()))?;
                if config.settings.default_provider.as_deref() == Some(gone.as_str()) {
                    config.settings.default_provider = None;
                }
                Ok(removed)
            })))
            .await?;
        let removed = taken.take();
        if let Some(secret) = removed.as_ref().and_then(|removed| removed.own_key(name)) {
            let _ = self.secrets.delete(secret).await;
        }
        Ok(())
    }

    /// The provider asked when nothing says which (`None`: no default).
    pub async fn set_default_provider(&self, name: Option<String>) -> Result<(), ModelsError> {
        self.host
            .edit(Box::new(move |config| {
                if let Some(name) = &name
                    && !config.providers.contains_key(name)
                {
                    return Err(ModelsError::NoProvider(name.clone()));
                }
                config.settings.default_provider = name;
                Ok(())
            }))
            .await
    }

    /// What the person pays for the tokens of `model` of `provider` (`None`: unknown),
    /// which the chat counts its conversations' cost by.
    pub async fn set_model_price(
        &self,
        provider: &str,
        model: &str,
        price: Option<ModelPrice>,
    ) -> Result<(), ModelsError> {
        if price.as_ref().is_some_and(|p| !p.is_valid()) {
            return Err(ModelsError::BadPrice);
        }
        if model.trim().is_empty() {
            return Err(ModelsError::PriceUnnamed);
        }
        self.set_of_model(provider, model, price, |entry| &mut entry.prices)
            .await
    }

    /// What `model` of `provider` takes, as the person says it (`None`: as its name tells),
    /// over what its name tells and its refusals taught.
    pub async fn set_model_profile(
        &self,
        provider: &str,
        model: &str,
        profile: Option<Profile>,
    ) -> Result<(), ModelsError> {
        if profile.as_ref().is_some_and(|p| !p.is_valid()) {
            return Err(ModelsError::BadProfile);
        }
        if model.trim().is_empty() {
            return Err(ModelsError::ProfileUnnamed);
        }
        let profile = profile.filter(|p| !p.is_empty());
        self.set_of_model(provider, model, profile, |entry| &mut entry.profiles)
            .await
    }

    /// Keeps `value` for `model` in the map of `provider`'s entry that `map` picks, or
    /// forgets what it held (`None`).
    async fn set_of_model<T: Send + 'static>(
        &self,
        provider: &str,
        model: &str,
        value: Option<T>,
        map: fn(&mut ProviderEntry) -> &mut std::collections::BTreeMap<String, T>,
    ) -> Result<(), ModelsError> {
        let (provider, model) = (provider.to_owned(), model.trim().to_owned());
        self.host
            .edit(Box::new(move |config| {
                let entry = config
                    .providers
                    .get_mut(&provider)
                    .ok_or(ModelsError::NoProvider(provider))?;
                match value {
                    Some(value) => _ = map(entry).insert(model, value),
                    None => _ = map(entry).remove(&model),
                }
                Ok(())
            }))
            .await
    }

    /// Keeps in `provider`'s profiles what its refusals taught `client` of its models,
    /// where the person said nothing of it: asked with it, a model would refuse again.
    pub async fn keep_learned(&self, provider: &str, client: &Client) {
        let learned = client.learned();
        let said = self
            .host
            .config()
            .providers
            .get(provider)
            .map(|e| e.profiles.clone());
        let new = learned.iter().any(|(model, taught)| {
            let known = said
                .as_ref()
                .and_then(|s| s.get(model))
                .copied()
                .unwrap_or_default();
            taught.overridden_by(known) != known
        });
        if !new {
            return;
        }
        let provider = provider.to_owned();
        let kept = self
            .host
            .edit(Box::new(move |config| {
                if let Some(entry) = config.providers.get_mut(&provider) {
                    for (model, taught) in learned {
                        let profile = entry.profiles.entry(model).or_default();
                        *profile = taught.overridden_by(*profile);
                    }
                }
                Ok::<(), ModelsError>(())
            }))
            .await;
        if let Err(e) = kept {
            tracing::warn!("what a provider's refusals taught was not kept: {e}");
        }
    }

    /// The model asked of `provider` when nothing says which (`None`: no default).
    pub async fn set_default_model(
        &self,
        provider: &str,
        model: Option<String>,
    ) -> Result<(), ModelsError> {
        let model = model.map(|m| m.trim().to_owned()).filter(|m| !m.is_empty());
        let provider = provider.to_owned();
        self.host
            .edit(Box::new(move |config| {
                let entry = config
                    .providers
                    .get_mut(&provider)
                    .ok_or(ModelsError::NoProvider(provider))?;
                entry.default_model = model;
                Ok(())
            }))
            .await
    }

    /// The models the provider a form describes offers, asked of it with the form's key
    /// (or, kept, the stored key of the provider `original`): before it is saved, to pick
    /// its default model. Errors carry the provider's own words (a refused key, a rate
    /// limit with how long to wait, a server that cannot be reached).
    pub async fn fetch_models_for(
        &self,
        original: Option<&str>,
        form: &ProviderForm,
    ) -> Result<Vec<ModelChoice>, ModelsError> {
        let base_url = valid_url(&form.base_url)?;
        let key = match &form.api_key {
            KeyChange::Set { value } if value.trim().is_empty() => {
                return Err(ProviderFormError::EmptyKey.into());
            }
            KeyChange::Set { value } => Some(value.trim().to_owned()),
            KeyChange::Remove => None,
            KeyChange::Keep => match original {
                Some(original) => {
                    let entry = self.provider_entry(original)?;
                    self.stored_key(original, &entry).await?
                }
                None => None,
            },
        };
        let client = Client::new(provider_config(
            form.protocol,
            &base_url,
            key.map(ApiKey::new),
        ))?;
        list(&client).await
    }

    /// The models the configured provider `name` offers.
    pub async fn fetch_models(&self, name: &str) -> Result<Vec<ModelChoice>, ModelsError> {
        list(&self.provider_client(name).await?).await
    }

    /// A client of the configured provider `name`, with its key from the keyring.
    pub async fn provider_client(&self, name: &str) -> Result<Client, ModelsError> {
        let entry = self.provider_entry(name)?;
        let key = self.stored_key(name, &entry).await?;
        let mut config = provider_config(entry.protocol, &entry.base_url, key.map(ApiKey::new));
        config.profiles = entry.profiles;
        config.learned = self
            .learned
            .lock()
            .entry(name.to_owned())
            .or_default()
            .clone();
        Ok(Client::new(config)?)
    }
}

/// What the names of `entry`'s models tell of them: those typed, its default, and those
/// priced or profiled.
fn known_profiles(entry: &ProviderEntry) -> std::collections::BTreeMap<String, Profile> {
    entry
        .models
        .iter()
        .chain(&entry.default_model)
        .chain(entry.prices.keys())
        .chain(entry.profiles.keys())
        .map(|model| (model.clone(), Profile::of(model)))
        .collect()
}

async fn list(client: &Client) -> Result<Vec<ModelChoice>, ModelsError> {
    let mut models: Vec<ModelChoice> = client
        .list_models()
        .await?
        .into_iter()
        .map(|m| ModelChoice {
            id: m.id,
            display_name: m.display_name,
        })
        .collect();
    models.sort_by(|a, b| a.id.cmp(&b.id));
    models.dedup_by(|a, b| a.id == b.id);
    Ok(models)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> ProviderForm {
        ProviderForm {
            name: "local".into(),
            protocol: ProviderProtocol::OpenAi,
            base_url: " http://localhost:11434/v1 ".into(),
            models: vec![" llama3.2 ".into(), String::new(), "llama3.2".into()],
            default_model: Some("  ".into()),
            api_key: KeyChange::Keep,
        }
    }

    #[test]
    fn a_form_becomes_an_entry_that_names_only_its_own_key() {
        let entry = apply_form(&form(), None, true).unwrap();
        assert_eq!(entry.base_url, "http://localhost:11434/v1");
        assert_eq!(entry.models, ["llama3.2"]);
        assert_eq!(entry.default_model, None);
        assert_eq!(entry.own_key("local"), Some("local/api-key"));
        assert_eq!(apply_form(&form(), None, false).unwrap().api_key, None);
    }

    #[test]
    fn settings_the_form_does_not_show_are_kept() {
        let mut previous = apply_form(&form(), None, false).unwrap();
        previous
            .extra
            .insert("headers".into(), serde_json::json!({"X-Title": "me"}));
        let entry = apply_form(&form(), Some(&previous), false).unwrap();
        assert_eq!(entry.extra["headers"]["X-Title"], "me");
    }

    #[test]
    fn bad_forms_say_what_is_wrong() {
        let named = |name: &str| ProviderForm {
            name: name.into(),
            ..form()
        };
        assert_eq!(
            apply_form(&named(""), None, false),
            Err(ProviderFormError::NoName)
        );
        assert_eq!(
            apply_form(&named("my/provider"), None, false),
            Err(ProviderFormError::BadName("my/provider".into()))
        );
        for url in ["localhost:11434", "ftp://example.com", "http://", ""] {
            let form = ProviderForm {
                base_url: url.into(),
                ..form()
            };
            assert!(
                matches!(
                    apply_form(&form, None, false),
                    Err(ProviderFormError::BadUrl(_))
                ),
                "{url}"
            );
        }
    }

    #[test]
    fn a_key_is_never_printed() {
        let change = KeyChange::Set {
            value: "sk-very-secret".into(),
        };
        let form = ProviderForm {
            api_key: change,
            ..form()
        };
        assert!(!format!("{form:?}").contains("very-secret"));
    }

    #[test]
    fn openais_own_api_gets_its_token_field() {
        let options =
            |url: &str| match provider_config(ProviderProtocol::OpenAi, url, None).protocol {
                Protocol::OpenAi(options) => options,
                Protocol::Anthropic | Protocol::Responses => unreachable!(),
            };
        assert_eq!(
            options("https://api.openai.com/v1"),
            OpenAiOptions::openai()
        );
        assert_eq!(
            options("http://localhost:11434/v1"),
            OpenAiOptions::default()
        );
    }
}
