//! How much memory this process holds and has held, as Linux counts it in
//! `/proc/self/status`. Shared by the benchmarks of the engine and of the host.

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

pub fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}
