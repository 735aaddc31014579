//! Model providers: the list, their settings (the key kept in the OS keyring), the models
//! each offers, the default provider and model, what each model's tokens cost and what
//! each model takes.

use switchboard_core::config::ModelPrice;
use switchboard_desk::{Desk, ModelChoice, ProviderForm, Providers};
use switchboard_providers::Profile;
use tauri::State;

use crate::CommandError;

type Result<T> = std::result::Result<T, CommandError>;

/// Every configured provider (each key shown as stored or not), and the default one.
#[tauri::command]
#[specta::specta]
pub async fn providers(desk: State<'_, Desk>) -> Result<Providers> {
    Ok(desk.models().providers().await)
}

/// Adds a provider (`original` null) or changes one, renaming it if the name changed.
#[tauri::command]
#[specta::specta]
pub async fn save_provider(
    desk: State<'_, Desk>,
    original: Option<String>,
    form: ProviderForm,
) -> Result<()> {
    Ok(desk.models().save_provider(original, form).await?)
}

/// Removes a provider; its key is deleted from the keyring.
#[tauri::command]
#[specta::specta]
pub async fn remove_provider(desk: State<'_, Desk>, name: String) -> Result<()> {
    Ok(desk.models().remove_provider(&name).await?)
}

/// The models the provider a form describes offers, asked with the form's key or (kept)
/// the stored key of the provider `original`.
#[tauri::command]
#[specta::specta]
pub async fn fetch_models(
    desk: State<'_, Desk>,
    original: Option<String>,
    form: ProviderForm,
) -> Result<Vec<ModelChoice>> {
    Ok(desk
        .models()
        .fetch_models_for(original.as_deref(), &form)
        .await?)
}

#[tauri::command]
#[specta::specta]
pub async fn set_default_provider(desk: State<'_, Desk>, name: Option<String>) -> Result<()> {
    Ok(desk.models().set_default_provider(name).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn set_default_model(
    desk: State<'_, Desk>,
    provider: String,
    model: Option<String>,
) -> Result<()> {
    Ok(desk.models().set_default_model(&provider, model).await?)
}

/// What the person pays for the tokens of `model` of `provider` (null: unknown).
#[tauri::command]
#[specta::specta]
pub async fn set_model_price(
    desk: State<'_, Desk>,
    provider: String,
    model: String,
    price: Option<ModelPrice>,
) -> Result<()> {
    Ok(desk
        .models()
        .set_model_price(&provider, &model, price)
        .await?)
}

/// What `model` of `provider` takes, as the person says it (null: as its name tells).
#[tauri::command]
#[specta::specta]
pub async fn set_model_profile(
    desk: State<'_, Desk>,
    provider: String,
    model: String,
    profile: Option<Profile>,
) -> Result<()> {
    Ok(desk
        .models()
        .set_model_profile(&provider, &model, profile)
        .await?)
}
