//! The desktop shell: thin adapters from Tauri's IPC to the host core.
//! Logic that a test without a window could not reach does not belong here.

mod autostart;
mod browser;
mod commands;
mod error;
mod events;
mod install_link;
mod instance;
#[cfg(test)]
mod layers;
mod malloc;
mod speech;
mod stays;
mod told;
mod tray;
mod webview;
mod window;

use std::path::{Path, PathBuf};

use switchboard_core::endpoint;
use switchboard_core::secrets::Secrets;
use switchboard_desk::Desk;
use switchboard_gateway as gateway;
use switchboard_gateway::bridge::{self, Listening};
use switchboard_mcp::server::http::HttpServer;
use tauri::Manager;

pub use commands::AppInfo;
pub use error::{CommandError, ErrorCode};

/// The typed IPC surface: every command the window may call. The same builder
/// exports `ui/src/bindings.ts`, so the UI's types are never written by hand.
pub fn ipc() -> tauri_specta::Builder<tauri::Wry> {
    use commands::{
        agents, approvals, chat, desktop, explorer, models, registry, sampling, servers, views,
    };
    tauri_specta::Builder::<tauri::Wry>::new()
        .commands(tauri_specta::collect_commands![
            commands::app_info,
            servers::servers,
            servers::server_form,
            servers::save_server,
            servers::remove_server,
            servers::set_server_enabled,
            servers::restart_server,
            servers::set_sandbox,
            servers::sandbox_view,
            servers::sign_in,
            servers::sign_out,
            servers::cancel_sign_in,
            servers::sign_in_waiting,
            servers::use_access_token,
            servers::signed_in,
            servers::server_tools,
            servers::set_tool_enabled,
            servers::server_info,
            servers::server_log,
            servers::clear_server_log,
            servers::server_traffic,
            servers::clear_server_traffic,
            servers::set_log_level,
            servers::server_roots,
            servers::set_server_roots,
            servers::set_folder_read_only,
            servers::check_folder,
            servers::import_candidates,
            servers::import_candidate,
            servers::import_servers,
            servers::pick_config_file,
            explorer::catalog,
            explorer::call_tool,
            explorer::cancel_call,
            explorer::calls_in_flight,
            explorer::read_resource,
            explorer::skills,
            explorer::load_skill,
            explorer::open_view,
            explorer::call_for_view,
            explorer::tasks,
            explorer::cancel_task,
            views::open_web_link,
            views::save_download,
            views::app_message,
            views::app_context,
            explorer::subscribe_resource,
            explorer::get_prompt,
            explorer::complete,
            approvals::pending_approvals,
            approvals::answer_tool_call,
            approvals::answer_read,
            approvals::answer_sampling,
            approvals::answer_elicitation,
            approvals::answer_sign_in,
            approvals::answer_roots,
            approvals::answer_agent_roots,
            approvals::pick_folder,
            approvals::audit,
            approvals::standing_rules,
            approvals::revoke_rule,
            approvals::shared_folders,
            approvals::confirms_own_destructive_calls,
            approvals::set_confirm_own_destructive_calls,
            models::providers,
            models::save_provider,
            models::remove_provider,
            models::fetch_models,
            models::set_default_provider,
            models::set_default_model,
            models::set_model_price,
            models::set_model_profile,
            chat::conversations,
            chat::create_conversation,
            chat::rename_conversation,
            chat::delete_conversation,
            chat::restore_conversation,
            chat::set_conversation_settings,
            chat::conversation,
            chat::export_conversation,
            chat::chat_tools,
            chat::set_chat_tool,
            chat::send_message,
            chat::send_composed,
            chat::edit_turn,
            chat::regenerate,
            chat::go_on,
            chat::remove_turn,
            chat::summarise_earlier,
            chat::stop_chat,
            sampling::draft_sampling,
            sampling::stop_sampling_draft,
            sampling::allow_sampling_without_review,
            sampling::revoke_sampling_rule,
            sampling::sampling_rules,
            agents::agents,
            agents::save_agent,
            agents::remove_agent,
            agents::disconnect_agent,
            agents::agent_calls,
            agents::agent_answers,
            agents::set_agent_answers,
            agents::agent_snippet,
            agents::agent_http_snippet,
            agents::renew_agent_token,
            agents::agent_setup_plan,
            agents::agent_setup_apply,
            agents::agent_reach,
            agents::set_agent_tool,
            agents::gateway_status,
            agents::set_agent_offered,
            registry::registry_url,
            registry::registry_servers,
            registry::install_proposal,
            registry::compose_install,
            registry::take_install_links,
            registry::install_link_server,
            desktop::desktop_settings,
            desktop::set_quit_on_close,
            desktop::set_language,
            desktop::set_theme,
            desktop::set_start_at_login,
        ])
        .events(tauri_specta::collect_events![
            events::HostUpdate,
            events::HostResync,
            events::TrafficAdded,
            events::TrafficLost,
            install_link::InstallLinksArrived,
            window::ShowRequest
        ])
        .error_handling(tauri_specta::ErrorHandlingMode::Throw)
        // Integers (ids, counts, milliseconds) are JavaScript numbers in the window, which
        // `JSON.parse` makes of them whatever their Rust type: none of them comes near 2^53.
        .dangerously_cast_bigints_to_number()
}

/// What the app sets for its whole process before any thread starts (malloc's arenas, the
/// environment that keeps a GL driver out): process-wide settings, so they come first.
/// Public for the footprint benchmark's floor, a bare window with the app's settings.
pub fn prepare_process() {
    malloc::limit_arenas();
    webview::keep_gl_out();
}

pub use webview::economize;

pub fn run() {
    prepare_process();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("SWITCHBOARD_LOG")
                .unwrap_or_else(|_| "info".into()),
        )
        .init();

    let config_path = match prepare_config() {
        Ok(path) => path,
        Err(err) => {
            tracing::error!("{err}");
            std::process::exit(1);
        }
    };
    let ipc = ipc();
    let app = tauri::Builder::default()
        // First: a second launch of this profile ends here, before it opens anything.
        .plugin(instance::plugin(&config_path))
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_deep_link::init())
        .invoke_handler(ipc.invoke_handler())
        .on_window_event(stays::on_event)
        .setup(move |app| {
            webview::economize(app);
            ipc.mount_events(app);
            install_link::setup(app);
            let desk = tauri::async_runtime::block_on(async { open_desk(&config_path) })?;
            // The app stays in the tray while its window is closed; the tray is there before
            // the first request can arrive, so that it counts every one.
            app.manage(stays::StaysNotice::beside(&config_path));
            tray::create(app.handle());
            events::relay(app.handle().clone(), &desk);
            let starting = desk.clone();
            tauri::async_runtime::spawn(async move { starting.start().await });
            // Agents reach the servers through `switchboard-cli bridge`, which connects here.
            let gateway = tauri::async_runtime::block_on(listen_for_agents(&desk));
            app.manage(Gateway(std::sync::Mutex::new(gateway)));
            // And over Streamable HTTP, each with its token, on the port of the settings.
            let http = tauri::async_runtime::block_on(serve_agents_over_http(&desk));
            app.manage(GatewayHttp(std::sync::Mutex::new(http)));
            // Ended by a signal (a logout, `kill`), the app still stops its servers
            // gracefully: it exits as if the window closed.
            let handle = app.handle().clone();
            tauri::async_runtime::spawn(async move {
                terminated().await;
                handle.exit(0);
            });
            app.manage(desk);
            if std::env::args().any(|a| a == autostart::IN_TRAY) {
                stays::start_in_tray(app.handle());
            }
            Ok(())
        })
        .build(tauri::generate_context!());
    let app = match app {
        Ok(app) => app,
        Err(err) => {
            tracing::error!("the app could not start: {err}");
            std::process::exit(1);
        }
    };
    app.run(|app, event| {
        // Servers are stopped gracefully (and their requests refused) before the app ends.
        if let tauri::RunEvent::Exit = event {
            // No agent reaches a desk that is shutting down; the socket goes with it.
            if let Some(gateway) = app.try_state::<Gateway>() {
                gateway.0.lock().map(|mut g| g.take()).ok();
            }
            if let Some(gateway) = app.try_state::<GatewayHttp>() {
                gateway.0.lock().map(|mut g| g.take()).ok();
            }
            if let Some(desk) = app.try_state::<Desk>() {
                tauri::async_runtime::block_on(desk.shutdown());
            }
        }
    });
}

/// Resolves when the app is asked to end by SIGTERM or SIGINT.
async fn terminated() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        tracing::warn!("signals cannot be caught: the app ends at once on one");
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}

/// Where agents' bridges connect while the app runs.
struct Gateway(std::sync::Mutex<Option<Listening>>);

/// Listens for agents' bridges on the user's socket; without it (another Switchboard holds
/// it, no runtime folder) the app runs on, and says why agents cannot reach it.
async fn listen_for_agents(desk: &Desk) -> Option<Listening> {
    let listening = match endpoint::socket_path() {
        Ok(path) => bridge::listen(&desk.agents(), &path).await,
        Err(e) => Err(e.into()),
    };
    listening
        .map_err(|e| tracing::warn!("agents cannot reach Switchboard: {e}"))
        .ok()
}

/// Where agents reach the gateway over Streamable HTTP while the app runs.
struct GatewayHttp(std::sync::Mutex<Option<HttpServer>>);

/// Serves agents over HTTP on the settings' port; when it cannot (the port is taken, or
/// the settings turn it off), the app runs on, the Agents page says why and offers the
/// bridge only.
async fn serve_agents_over_http(desk: &Desk) -> Option<HttpServer> {
    let agents = desk.agents();
    let port = agents.gateway_port()?;
    gateway::http::listen(&agents, port).await.ok()
}

/// The audit trail lives beside the configuration it belongs to.
fn open_desk(config_path: &Path) -> Result<Desk, Box<dyn std::error::Error>> {
    let audit = config_path.with_file_name("audit.sqlite");
    Ok(Desk::open(config_path, &audit, Secrets::default())?)
}

/// On a first run, writes the configuration with the bundled demo server (installed beside
/// the app), so that a newcomer sees everything work with no network. A broken file is left
/// alone: the app starts and says what is wrong.
fn prepare_config() -> Result<PathBuf, String> {
    let path = switchboard_core::config::config_path().map_err(|e| e.to_string())?;
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(err) =
        switchboard_core::config::load_or_create(&path, switchboard_core::config::Config::first_run)
    {
        tracing::error!("{err}");
    }
    Ok(path)
}

#[cfg(test)]
mod bindings;
