//! `switchboard-confine`: the host runs a local server through this helper when bubblewrap
//! cannot be used (not installed, or user namespaces disabled). It confines itself, then
//! becomes the server with `exec`, so the server starts already inside the sandbox and no
//! part of it ever runs unconfined:
//!
//! - Landlock: the file system is an allow-list (`--read` and `--write` paths), abstract
//!   unix sockets and signals are scoped to the sandbox, and with `--no-network` TCP bind
//!   and connect are denied. Landlock needs no privilege and no namespace, which is why it
//!   still works where bubblewrap does not.
//! - seccomp, with `--no-network` only: `socket()` fails for every family but `AF_UNIX`,
//!   and `io_uring_setup` is refused, whatever the kernel's Landlock ABI.
//!
//! The crates: `landlock` is the Landlock project's own Rust library, and its best-effort
//! mode keeps what an older kernel supports instead of failing; `seccompiler` is rust-vmm's
//! seccomp-BPF compiler, used by Firecracker, pure Rust with no libseccomp to link.
//!
//! ```text
//! switchboard-confine [--read PATH]... [--write PATH]... [--no-network] -- PROGRAM [ARG]...
//! switchboard-confine --probe
//! ```
//!
//! Any failure before `exec` prints one `switchboard-confine: ` line on stderr and exits
//! 126 (127 when PROGRAM is not found), as a shell does for a command it cannot run.

#[cfg(target_os = "linux")]
mod fs;
#[cfg(target_os = "linux")]
mod net;

use std::ffi::OsString;
use std::process::ExitCode;

const USAGE: &str = "usage: switchboard-confine [--read PATH]... [--write PATH]... \
                     [--no-network] -- PROGRAM [ARG]... | switchboard-confine --probe";

/// What the command line asks for.
#[derive(Debug, Default)]
struct Options {
    read: Vec<OsString>,
    write: Vec<OsString>,
    no_network: bool,
    /// PROGRAM then its arguments.
    command: Vec<OsString>,
}

enum Request {
    Run(Options),
    Probe,
    Help,
}

/// Why the helper stops before `exec`: the exit status and the line for stderr.
struct Failure {
    status: u8,
    message: String,
}

impl Failure {
    fn new(message: impl Into<String>) -> Self {
        Failure {
            status: 126,
            message: message.into(),
        }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::new(message)
    }
}

fn main() -> ExitCode {
    let outcome = parse(std::env::args_os().skip(1).collect()).and_then(|request| match request {
        Request::Help => {
            println!("{USAGE}");
            Ok(())
        }
        // A probe answers a question: 1 is "no", not "could not run".
        Request::Probe => probe().map_err(|failure| Failure {
            status: 1,
            ..failure
        }),
        Request::Run(options) => run(options),
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("switchboard-confine: {}", failure.message);
            ExitCode::from(failure.status)
        }
    }
}

fn parse(args: Vec<OsString>) -> Result<Request, Failure> {
    match args.first().and_then(|arg| arg.to_str()) {
        Some("--probe") if args.len() == 1 => return Ok(Request::Probe),
        Some("--help" | "-h") if args.len() == 1 => return Ok(Request::Help),
        _ => {}
    }
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some(flag @ ("--read" | "--write")) => {
                let Some(path) = args.next() else {
                    return Err(Failure::new(format!("{flag} needs a PATH; {USAGE}")));
                };
                if flag == "--read" {
                    options.read.push(path);
                } else {
                    options.write.push(path);
                }
            }
            Some("--no-network") => options.no_network = true,
            Some("--") => {
                options.command = args.collect();
                if options.command.is_empty() {
                    return Err(Failure::new(format!("no PROGRAM after --; {USAGE}")));
                }
                return Ok(Request::Run(options));
            }
            _ => {
                let arg = arg.to_string_lossy();
                return Err(Failure::new(format!(
                    "unexpected argument '{arg}'; {USAGE}"
                )));
            }
        }
    }
    Err(Failure::new(format!("no -- PROGRAM given; {USAGE}")))
}

#[cfg(target_os = "linux")]
fn run(options: Options) -> Result<(), Failure> {
    use std::os::unix::process::CommandExt;

    fs::restrict(&options.read, &options.write, options.no_network)?;
    if options.no_network {
        net::install_filter()?;
    }
    let (program, args) = options
        .command
        .split_first()
        .ok_or_else(|| Failure::new("no PROGRAM"))?;
    // `exec` only returns on failure; it searches PATH itself when PROGRAM has no slash,
    // and does so already confined, so what it cannot see is what the server could not.
    let error = std::process::Command::new(program).args(args).exec();
    let program = program.to_string_lossy();
    Err(match error.kind() {
        std::io::ErrorKind::NotFound => Failure {
            status: 127,
            message: format!("cannot run {program}: not found"),
        },
        std::io::ErrorKind::PermissionDenied => Failure::new(format!(
            "cannot run {program}: permission denied (it, and its interpreter or loader, \
             must be beneath a --read or --write path)"
        )),
        _ => Failure::new(format!("cannot run {program}: {error}")),
    })
}

/// Applies the same kinds of restriction as a `--no-network` run to this very process,
/// which exits right after: what succeeds here succeeds for a server.
#[cfg(target_os = "linux")]
fn probe() -> Result<(), Failure> {
    let abi = fs::restrict(&[], &[], true)?;
    net::install_filter()?;
    println!("landlock abi {abi}, seccomp");
    Ok(())
}

#[cfg(not(target_os = "linux"))]
fn run(_: Options) -> Result<(), Failure> {
    Err(Failure::new("Landlock and seccomp exist only on Linux"))
}

#[cfg(not(target_os = "linux"))]
fn probe() -> Result<(), Failure> {
    run(Options::default())
}
