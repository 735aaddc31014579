//! `provider-peer`: a stand-in model provider for tests. It speaks OpenAI's Chat
//! Completions and Responses and Anthropic's Messages byte for byte, streaming included,
//! and answers from a script instead of a model.
//!
//! ```text
//! provider-peer (--script FILE | --script-json JSON) [--port N]
//! ```
//!
//! It listens on 127.0.0.1 (port 0, a free one, by default) and prints
//! `listening on http://127.0.0.1:<port>` on stdout once it accepts. The OpenAI base URL
//! is that address with `/v1`, the Anthropic one the address itself.
//!
//! | path                        | what                                              |
//! | --------------------------- | ------------------------------------------------- |
//! | `POST /v1/chat/completions` | the next scripted turn, in OpenAI's Chat Completions |
//! | `POST /v1/responses`        | the next scripted turn, in OpenAI's Responses API  |
//! | `POST /v1/messages`         | the next scripted turn, in Anthropic's protocol    |
//! | `GET /v1/models`            | the script's models; Anthropic's paged list when the request has `anthropic-version` |
//! | `GET /_stand-in/requests`   | every request above so far: method, path, query, headers, body |
//!
//! See `script.rs` for the script. Requests are checked as the real APIs check them
//! (the key, required fields and headers, unknown parameters where the API refuses them,
//! the bounds of the parameters, the tools' names, no empty message, tool calls answered,
//! a reasoning model's thinking sent back), and refused with their errors
//! (`crates/providers/tests/it/stand_in.rs`).

mod answer;
mod anthropic;
mod dialect;
mod http;
mod openai;
mod reasoning;
mod responses;
mod script;

use std::process::ExitCode;

const USAGE: &str = "usage: provider-peer (--script FILE | --script-json JSON) [--port N]";

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<(script::Script, u16), String> {
    let mut script = None;
    let mut port = 0;
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--script" => {
                let path = value()?;
                let text = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read {path}: {e}"))?;
                script = Some(text);
            }
            "--script-json" => script = Some(value()?),
            "--port" => {
                port = value()?.parse().map_err(|e| format!("--port: {e}"))?;
            }
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    let script = script.ok_or("no script given")?;
    let script = serde_json::from_str(&script).map_err(|e| format!("the script: {e}"))?;
    Ok((script, port))
}

fn main() -> ExitCode {
    let (script, port) = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("provider-peer: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("provider-peer: no runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(http::serve(script, port)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("provider-peer: {e}");
            ExitCode::FAILURE
        }
    }
}
