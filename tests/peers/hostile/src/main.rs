//! `hostile-peer`: an MCP server that answers `initialize` properly and then misbehaves on
//! purpose, one way per mode, so that tests can see how a client copes.
//!
//! ```text
//! hostile-peer <mode>                 over stdin/stdout
//! hostile-peer <mode> --http [--sse]  Streamable HTTP on 127.0.0.1 (a free port); prints
//!                                     `listening on <url>` on stdout once it accepts.
//!                                     --sse: answers come as event streams, not JSON bodies
//! ```
//!
//! Its one tool is `poke`, answered with the text "poked" when the mode lets it. On stderr
//! it writes `hostile-peer: misbehaving: <how>` once, when the misbehaviour begins: a test's
//! signal that it is under way. See [`behaviour::Mode`] for the modes.

mod behaviour;
mod http;
mod outlet;
mod stdio;
mod wire;

use std::process::ExitCode;
use std::sync::Arc;

use behaviour::{Mode, Peer};

const USAGE: &str = "usage: hostile-peer <mode> [--http [--sse]]";

struct Args {
    mode: Mode,
    http: bool,
    sse: bool,
}

fn parse_args(args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut mode = None;
    let (mut http, mut sse) = (false, false);
    for arg in args {
        match arg.as_str() {
            "--http" => http = true,
            "--sse" => sse = true,
            name if mode.is_none() && !name.starts_with('-') => {
                mode =
                    Some(Mode::parse(name).ok_or_else(|| {
                        format!("unknown mode {name:?}; modes: {}", Mode::names())
                    })?);
            }
            other => return Err(format!("unexpected argument {other:?}")),
        }
    }
    let mode = mode.ok_or_else(|| format!("no mode given; modes: {}", Mode::names()))?;
    if mode.http_only() && !http {
        return Err(format!("{} needs --http", mode.name()));
    }
    if sse && !http {
        return Err("--sse needs --http".into());
    }
    Ok(Args { mode, http, sse })
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("hostile-peer: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // One thread: what this peer writes happens in a predictable order (see
    // `Outlet::crash_mid`), and it needs no more.
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("hostile-peer: no runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    if args.mode == Mode::HugeStderr {
        behaviour::shout_on_stderr();
    }
    let peer = Arc::new(Peer::new(args.mode));
    let served = runtime.block_on(async {
        if args.http {
            http::serve(peer, args.sse).await
        } else {
            stdio::serve(peer).await
        }
    });
    // Tasks still writing (a flood, a huge answer) are not waited for.
    runtime.shutdown_background();
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hostile-peer: {e}");
            ExitCode::FAILURE
        }
    }
}
