//! The `--no-network` seccomp filter. Landlock handles only TCP (ABI 4) and UDP (later)
//! ports, and only on recent kernels; refusing the sockets themselves covers every kernel
//! and every family (raw, netlink, packet, ...). `AF_UNIX` stays: runtimes use it inside
//! the process, and Landlock's scopes and file rules bound what it can reach.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

#[cfg(target_arch = "x86_64")]
const ARCH: TargetArch = TargetArch::x86_64;
#[cfg(target_arch = "aarch64")]
const ARCH: TargetArch = TargetArch::aarch64;
#[cfg(target_arch = "riscv64")]
const ARCH: TargetArch = TargetArch::riscv64;

/// The same syscalls by the x32 ABI: its numbers carry this bit, and its filter
/// architecture is x86_64's, so a filter by number alone would miss them.
#[cfg(target_arch = "x86_64")]
const X32: i64 = 0x4000_0000;

/// Installs the filter on this thread (the only one), for it and what it execs. Syscalls
/// of another architecture (32-bit x86 on x86_64, whose `socketcall` would bypass the
/// rule) kill the process: `seccompiler` checks the architecture first.
pub fn install_filter() -> Result<(), String> {
    let not_unix = SeccompRule::new(vec![
        SeccompCondition::new(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Ne,
            libc::AF_UNIX as u64,
        )
        .map_err(failed)?,
    ])
    .map_err(failed)?;
    // One filter has one action for its matches, so each errno gets a filter of its own.
    // ENETUNREACH reads as "no network" to programs and people alike.
    let sockets = filter(
        syscalls(libc::SYS_socket)
            .into_iter()
            .map(|nr| (nr, vec![not_unix.clone()]))
            .collect(),
        libc::ENETUNREACH,
    )?;
    // io_uring can open sockets without socket(2); ENOSYS makes runtimes fall back to
    // plain syscalls as on a kernel without io_uring.
    let io_uring = filter(
        syscalls(libc::SYS_io_uring_setup)
            .into_iter()
            .map(|nr| (nr, vec![]))
            .collect(),
        libc::ENOSYS,
    )?;
    for program in [sockets, io_uring] {
        seccompiler::apply_filter(&program).map_err(|error| {
            format!("the kernel refused the seccomp filter for --no-network: {error}")
        })?;
    }
    Ok(())
}

fn filter(rules: BTreeMap<i64, Vec<SeccompRule>>, errno: i32) -> Result<BpfProgram, String> {
    let errno = u32::try_from(errno).map_err(failed)?;
    SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno),
        ARCH,
    )
    .map_err(failed)?
    .try_into()
    .map_err(failed)
}

/// A syscall's numbers on this architecture: its own, and on x86_64 the x32 one too.
fn syscalls(nr: i64) -> Vec<i64> {
    let mut numbers = vec![nr];
    #[cfg(target_arch = "x86_64")]
    numbers.push(nr | X32);
    numbers
}

fn failed(error: impl std::fmt::Display) -> String {
    format!("cannot build the seccomp filter: {error}")
}
