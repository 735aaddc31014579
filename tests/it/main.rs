//! The integration tests of this crate, one binary: each module was a test file of its own
//! (`cargo test --test it <module>::` runs one).

mod app_signals;
mod app_window;
mod readme;
mod support;
mod window_activity;
mod window_agent_answers;
mod window_agent_setup;
mod window_agents;
mod window_agents_http;
mod window_apps;
mod window_audit;
mod window_chat;
mod window_chat_turns;
mod window_dialogs;
mod window_eras;
mod window_explorer;
mod window_import_audit;
mod window_keyboard;
mod window_language;
mod window_layout;
mod window_registry;
mod window_sampling;
mod window_sign_in;
mod window_skills;
mod window_stays;
mod window_tasks;
mod window_traffic;
mod window_trust;
mod window_views;
