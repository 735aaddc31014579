//! Ports for programs a test starts and then connects to.

use std::hash::{BuildHasher, RandomState};
use std::net::{Ipv4Addr, SocketAddr, TcpListener};
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// How many ports a program is given in turn before its test gives up on it.
const TRIES: usize = 3;

/// A loopback port free right now, for a program to listen on once it starts. Taken below
/// the kernel's ephemeral range: a port from that range (what binding port 0 gives) can be
/// handed to one of the machine's many outgoing connections before the program gets to
/// bind it, and the program then fails to start ("Unable to listen").
pub fn free_port() -> u16 {
    let low = ephemeral_low().clamp(2048, 65535);
    let span = u64::from(low - 1024);
    // Starting at a random place keeps concurrent tests from trying the same ports in turn.
    let start = 1024 + (RandomState::new().hash_one(std::process::id()) % span) as u16;
    (start..low)
        .chain(1024..start)
        .find(|&port| TcpListener::bind((Ipv4Addr::LOCALHOST, port)).is_ok())
        .expect("a free loopback port below the ephemeral range")
}

/// A loopback address that refuses every connection for as long as the socket returned
/// lives: its port is bound, so that no server started meanwhile (another test's) is given
/// it, but nothing listens on it. A port bound and let go again may be another's by the time
/// it is connected to.
pub fn refusing_address() -> (SocketAddr, tokio::net::TcpSocket) {
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket
        .bind((Ipv4Addr::LOCALHOST, 0).into())
        .expect("a loopback port");
    (socket.local_addr().expect("its address"), socket)
}

/// Whether a line a program wrote says the port it was given is taken: Node's
/// `EADDRINUSE`, Python's errno 98 and Rust's `AddrInUse` all say "address already in use".
pub fn says_port_taken(line: &str) -> bool {
    line.to_ascii_lowercase().contains("address already in use")
}

/// Starts a program on a [`free_port`], and on another when that one was taken between
/// its choice and the program's bind (by another test's program, or by a connection of
/// the machine). `start` starts the program on the port it is given and returns it
/// listening, or else the lines it wrote.
pub async fn on_free_port<T>(
    what: &str,
    start: impl AsyncFnMut(u16) -> Result<T, Vec<String>>,
) -> T {
    on_ports(what, std::iter::repeat_with(free_port), start).await
}

/// [`on_free_port`] for a program started and waited for without async.
pub fn on_free_port_blocking<T>(
    what: &str,
    mut start: impl FnMut(u16) -> Result<T, Vec<String>>,
) -> T {
    ready_now(on_free_port(what, async |port| start(port)))
}

/// What a future that never waits gives at its first poll.
fn ready_now<F: Future>(future: F) -> F::Output {
    match pin!(future).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(output) => output,
        Poll::Pending => unreachable!("a start without async never waits"),
    }
}

async fn on_ports<T>(
    what: &str,
    ports: impl IntoIterator<Item = u16>,
    mut start: impl AsyncFnMut(u16) -> Result<T, Vec<String>>,
) -> T {
    let mut ports = ports.into_iter();
    let mut tries = 0;
    loop {
        tries += 1;
        let port = ports.next().expect("another port to try");
        match start(port).await {
            Ok(started) => return started,
            Err(said) if tries < TRIES && said.iter().any(|l| says_port_taken(l)) => {}
            Err(said) => panic!("{what} did not start listening on port {port}: {said:?}"),
        }
    }
}

/// The first port of the range the kernel picks ephemeral ports from.
fn ephemeral_low() -> u16 {
    std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse().ok())
        .unwrap_or(32768)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Listens on `port` as a program would, or says what binding it said.
    fn listen(port: u16) -> Result<TcpListener, Vec<String>> {
        TcpListener::bind((Ipv4Addr::LOCALHOST, port)).map_err(|e| vec![e.to_string()])
    }

    #[test]
    fn a_port_taken_before_the_program_binds_it_is_replaced_by_another() {
        let taken = TcpListener::bind((Ipv4Addr::LOCALHOST, free_port())).unwrap();
        let taken_port = taken.local_addr().unwrap().port();
        let started = on_ports_blocking([taken_port, free_port()], listen);
        assert_ne!(started.local_addr().unwrap().port(), taken_port);
    }

    #[test]
    #[should_panic(expected = "did not start listening")]
    fn a_program_that_fails_otherwise_is_not_started_again() {
        let mut tries = 0;
        on_ports_blocking([free_port(), free_port()], |_| {
            tries += 1;
            assert_eq!(tries, 1, "started again");
            Err::<(), _>(vec!["No module named 'mcp'".to_owned()])
        });
    }

    #[test]
    #[should_panic(expected = "already in use")]
    fn a_port_taken_every_time_fails_after_a_few_tries() {
        let taken = TcpListener::bind((Ipv4Addr::LOCALHOST, free_port())).unwrap();
        let port = taken.local_addr().unwrap().port();
        on_ports_blocking(std::iter::repeat(port), listen);
    }

    fn on_ports_blocking<T>(
        ports: impl IntoIterator<Item = u16>,
        mut start: impl FnMut(u16) -> Result<T, Vec<String>>,
    ) -> T {
        ready_now(on_ports("a listener", ports, async |port| start(port)))
    }
}
