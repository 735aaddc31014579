//! What every client reports, in the shape of the JSON line the peer clients print, and
//! how it is printed side by side.

use serde::{Deserialize, Serialize};

use crate::process::mib;

/// A block of echo calls: each call's latency, the block's wall time, and the CPU time the
/// client process spent on it.
#[derive(Debug, Deserialize)]
pub struct Run {
    pub latencies_us: Vec<f64>,
    pub wall_s: f64,
    pub cpu_s: f64,
}

/// The echo figures of one client: one call at a time, then many in flight.
#[derive(Debug, Deserialize)]
pub struct EchoReport {
    pub client: String,
    pub sequential: Run,
    pub concurrent: Run,
}

/// The read of one large resource, in a fresh client process.
#[derive(Debug, Serialize, Deserialize)]
pub struct ReadReport {
    pub client: String,
    pub read: Read,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Read {
    pub bytes: u64,
    pub seconds: f64,
    pub rss_before: u64,
    pub peak_rss: u64,
}

/// The columns of one row of an echo table.
#[derive(Debug, Clone, Copy)]
struct Summary {
    p50: f64,
    p99: f64,
    calls_per_s: f64,
    cpu_us_per_call: f64,
}

impl Run {
    fn summary(&self) -> Summary {
        let mut sorted = self.latencies_us.clone();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
        let calls = self.latencies_us.len() as f64;
        Summary {
            p50: at(0.50),
            p99: at(0.99),
            calls_per_s: calls / self.wall_s,
            cpu_us_per_call: self.cpu_s * 1e6 / calls,
        }
    }
}

const NAME_WIDTH: usize = 44;

pub fn print_echo_header() {
    println!(
        "  {:<NAME_WIDTH$} {:>10} {:>10} {:>10} {:>14}",
        "", "p50 µs", "p99 µs", "calls/s", "client CPU µs"
    );
}

/// One block (`sequential` or `64 in flight`) of every client, ours first, then the
/// ratios ours / peer (below 1 is better for latency and CPU, above 1 for calls/s).
pub fn print_echo_block(title: &str, reports: &[&EchoReport], pick: fn(&EchoReport) -> &Run) {
    println!("  {title}");
    let rows: Vec<(&str, Summary)> = reports
        .iter()
        .map(|r| (r.client.as_str(), pick(r).summary()))
        .collect();
    for (client, s) in &rows {
        println!(
            "    {client:<w$} {:>10.1} {:>10.1} {:>10.0} {:>14.1}",
            s.p50,
            s.p99,
            s.calls_per_s,
            s.cpu_us_per_call,
            w = NAME_WIDTH - 2
        );
    }
    let Some(((_, ours), peers)) = rows.split_first() else {
        return;
    };
    for (client, peer) in peers {
        println!(
            "    {:<w$} {:>10.2} {:>10.2} {:>10.2} {:>14.2}",
            format!("ours / {}", short(client)),
            ours.p50 / peer.p50,
            ours.p99 / peer.p99,
            ours.calls_per_s / peer.calls_per_s,
            ours.cpu_us_per_call / peer.cpu_us_per_call,
            w = NAME_WIDTH - 2
        );
    }
}

/// The read figures of every client, ours first, with the ratios ours / peer.
pub fn print_reads(reports: &[ReadReport]) {
    println!(
        "  {:<NAME_WIDTH$} {:>10} {:>14} {:>14} {:>14}",
        "", "seconds", "peak RSS MiB", "RSS before", "growth MiB"
    );
    let growth = |r: &Read| mib(r.peak_rss.saturating_sub(r.rss_before));
    for report in reports {
        let r = &report.read;
        println!(
            "    {:<w$} {:>10.3} {:>14.1} {:>14.1} {:>14.1}",
            report.client,
            r.seconds,
            mib(r.peak_rss),
            mib(r.rss_before),
            growth(r),
            w = NAME_WIDTH - 2
        );
    }
    let Some((ours, peers)) = reports.split_first() else {
        return;
    };
    for peer in peers {
        println!(
            "    {:<w$} {:>10.2} {:>14.2} {:>14.2} {:>14.2}",
            format!("ours / {}", short(&peer.client)),
            ours.read.seconds / peer.read.seconds,
            ours.read.peak_rss as f64 / peer.read.peak_rss as f64,
            ours.read.rss_before as f64 / peer.read.rss_before as f64,
            growth(&ours.read) / growth(&peer.read),
            w = NAME_WIDTH - 2
        );
    }
}

/// A client's name without its version details, for the ratio rows.
fn short(client: &str) -> &str {
    client.split(" (").next().unwrap_or(client)
}
