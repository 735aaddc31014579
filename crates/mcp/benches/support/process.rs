//! What this process has used so far, as Linux counts it: resident memory from
//! `/proc/self/status` and CPU time from `getrusage`. Shared by the benchmarks of the
//! engine and of the host.

use std::time::Duration;

/// Current and peak resident set size, in bytes.
#[derive(Debug, Clone, Copy)]
pub struct Memory {
    /// `VmRSS`.
    pub rss: u64,
    /// `VmHWM`: the most this process has ever held resident.
    pub peak: u64,
}

pub fn memory() -> Memory {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(':'))
            .and_then(|value| value.split_whitespace().next()?.parse::<u64>().ok())
            .map_or(0, |kib| kib * 1024)
    };
    Memory {
        rss: field("VmRSS"),
        peak: field("VmHWM"),
    }
}

/// User plus system CPU time of every thread of this process.
pub fn cpu_time() -> Duration {
    use nix::sys::resource::{UsageWho, getrusage};
    let usage = getrusage(UsageWho::RUSAGE_SELF).expect("getrusage");
    let micros = |t: nix::sys::time::TimeVal| {
        Duration::from_secs(t.tv_sec() as u64) + Duration::from_micros(t.tv_usec() as u64)
    };
    micros(usage.user_time()) + micros(usage.system_time())
}

pub fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}
