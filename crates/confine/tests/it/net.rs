//! `--no-network`, and the scopes that hold whatever the flags.

use std::io::{ErrorKind, Read};
use std::net::TcpListener;
use std::process::Command;
use std::time::{Duration, Instant};

use crate::{CONFINE, PYTHON, SYSTEM, confine, run, text};

/// A listener on loopback that never blocks, and its port.
fn listener() -> (TcpListener, u16) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback listener");
    listener
        .set_nonblocking(true)
        .expect("a non-blocking listener");
    let port = listener.local_addr().expect("its address").port();
    (listener, port)
}

/// What reached `listener`: the bytes of the first connection, if one came in `wait`.
fn accepted(listener: &TcpListener, wait: Duration) -> Option<String> {
    let deadline = Instant::now() + wait;
    loop {
        match listener.accept() {
            Ok((mut stream, _)) => {
                stream.set_nonblocking(false).expect("a blocking stream");
                stream
                    .set_read_timeout(Some(Duration::from_secs(5)))
                    .expect("a timeout");
                let mut received = String::new();
                stream.read_to_string(&mut received).expect("the bytes");
                return Some(received);
            }
            Err(error) if error.kind() == ErrorKind::WouldBlock && Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(error) if error.kind() == ErrorKind::WouldBlock => return None,
            Err(error) => panic!("accept failed: {error}"),
        }
    }
}

fn connect_script(port: u16) -> String {
    format!(
        "import socket\n\
         s = socket.create_connection(('127.0.0.1', {port}), timeout=10)\n\
         s.sendall(b'hello')\n\
         s.close()"
    )
}

#[test]
fn a_server_reaches_loopback_only_without_no_network() {
    let (listener, port) = listener();
    let output = run(confine().args(["--", PYTHON, "-c", &connect_script(port)]));
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(
        accepted(&listener, Duration::from_secs(5)).as_deref(),
        Some("hello")
    );

    let output = run(confine().args(["--no-network", "--", PYTHON, "-c", &connect_script(port)]));
    assert!(!output.status.success());
    // The seccomp filter: socket(AF_INET) itself fails.
    assert!(
        text(&output.stderr).contains("Network is unreachable"),
        "{}",
        text(&output.stderr)
    );
    // The child has exited: a connection that had been made would be waiting by now.
    assert_eq!(accepted(&listener, Duration::from_millis(200)), None);
}

#[test]
fn an_inherited_tcp_socket_cannot_connect_under_no_network() {
    // An unconfined Python makes the socket and execs the helper with it open: seccomp
    // never sees a socket() call, so Landlock's TCP rule is what must refuse the connect.
    let (listener, port) = listener();
    let inner = format!(
        "import socket, sys\n\
         s = socket.socket(fileno=int(sys.argv[1]))\n\
         s.settimeout(10)\n\
         s.connect(('127.0.0.1', {port}))"
    );
    let outer = "import os, socket, sys\n\
                 s = socket.socket()\n\
                 s.set_inheritable(True)\n\
                 os.execv(sys.argv[1], sys.argv[1:] + [str(s.fileno())])";
    let mut command = Command::new(PYTHON);
    command.args(["-c", outer, CONFINE]);
    for path in SYSTEM {
        command.args(["--read", path]);
    }
    let output = run(command.args(["--no-network", "--", PYTHON, "-c", &inner]));
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("PermissionError"),
        "{}",
        text(&output.stderr)
    );
    assert_eq!(accepted(&listener, Duration::from_millis(200)), None);
}

#[test]
fn io_uring_is_missing_under_no_network() {
    // io_uring_setup(1, &params) through libc, printing the errno it gives (0: it worked).
    let script = "import ctypes, os\n\
                  libc = ctypes.CDLL(None, use_errno=True)\n\
                  params = ctypes.create_string_buffer(120)\n\
                  fd = libc.syscall(425, 1, params)\n\
                  print(0 if fd >= 0 else ctypes.get_errno())";
    let errno = |no_network: bool| {
        let mut command = confine();
        if no_network {
            command.arg("--no-network");
        }
        let output = run(command.args(["--", PYTHON, "-c", script]));
        assert!(output.status.success(), "{}", text(&output.stderr));
        text(&output.stdout)
            .trim()
            .parse::<i32>()
            .expect("an errno")
    };
    const ENOSYS: i32 = 38;
    assert_eq!(errno(true), ENOSYS);
    // Unless this kernel lacks io_uring, it is the filter that refused.
    assert_ne!(errno(false), ENOSYS);
}

#[test]
fn processes_outside_the_sandbox_cannot_be_signalled() {
    let mut outside = Command::new("/bin/sleep")
        .arg("30")
        .spawn()
        .expect("a sleeper");
    let script = format!(
        "kill -0 {0}; echo outside=$?; /bin/sleep 30 & kill -0 $!; echo inside=$?; kill $!",
        outside.id()
    );
    let output = run(confine().args(["--", "/bin/sh", "-c", &script]));
    let _ = outside.kill();
    let _ = outside.wait();
    assert_eq!(
        text(&output.stdout),
        "outside=1\ninside=0\n",
        "{}",
        text(&output.stderr)
    );
}
