//! Ports for programs a test starts and then connects to.

use std::hash::{BuildHasher, RandomState};
use std::net::{Ipv4Addr, TcpListener};

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

/// The first port of the range the kernel picks ephemeral ports from.
fn ephemeral_low() -> u16 {
    std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse().ok())
        .unwrap_or(32768)
}
