//! `switchboard-cli`: the scripting face of Switchboard.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "switchboard-cli",
    version,
    about = "Switchboard from the command line"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print where the configuration file lives.
    ConfigPath,
    /// Print the protocol revisions this build speaks, newest first, as JSON.
    Revisions,
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::ConfigPath => match switchboard_host::config::config_path() {
            Ok(path) => {
                println!("{}", path.display());
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("switchboard-cli: {err}");
                ExitCode::FAILURE
            }
        },
        Command::Revisions => {
            let revisions = switchboard_mcp::ProtocolVersion::NEWEST_FIRST.map(|v| v.as_str());
            println!("{}", serde_json::json!(revisions));
            ExitCode::SUCCESS
        }
    }
}
