fn main() {
    println!("cargo:rerun-if-changed=src-tauri/capabilities");
    let manifest = tauri_build::AppManifest::new().commands(switchboard_commands());
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .capabilities_path_pattern("src-tauri/capabilities/*.json")
            .app_manifest(manifest),
    )
    .expect("tauri build step");
}

/// Every command the app exposes; each gets an `allow-<name>` permission that the
/// window's capability must grant explicitly.
fn switchboard_commands() -> &'static [&'static str] {
    &[
        "app_info",
        "servers",
        "server_form",
        "save_server",
        "remove_server",
        "set_server_enabled",
        "restart_server",
        "server_tools",
        "set_tool_enabled",
        "server_info",
        "server_log",
        "clear_server_log",
        "server_traffic",
        "set_log_level",
        "server_roots",
        "set_server_roots",
        "check_folder",
        "import_candidates",
        "import_candidate",
        "import_servers",
        "pick_config_file",
        "catalog",
        "call_tool",
        "cancel_call",
        "calls_in_flight",
        "read_resource",
        "subscribe_resource",
        "get_prompt",
        "complete",
        "pending_approvals",
        "answer_tool_call",
        "standing_rules",
        "revoke_rule",
        "shared_folders",
        "confirms_own_destructive_calls",
        "set_confirm_own_destructive_calls",
        "answer_sampling",
        "answer_elicitation",
        "answer_roots",
        "pick_folder",
        "audit",
        "providers",
        "save_provider",
        "remove_provider",
        "fetch_models",
        "set_default_provider",
        "set_default_model",
        "conversations",
        "create_conversation",
        "rename_conversation",
        "delete_conversation",
        "conversation",
        "chat_tools",
        "set_chat_tool",
        "send_message",
        "send_composed",
        "stop_chat",
        "draft_sampling",
        "allow_sampling_without_review",
        "revoke_sampling_rule",
        "sampling_rules",
    ]
}
