//! The Landlock domain: the file system allow-list, the scopes, and (with `--no-network`)
//! TCP bind and connect with no port allowed.

use std::ffi::OsString;

use landlock::{
    ABI, Access, AccessFs, AccessNet, LandlockStatus, RestrictSelf, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope, path_beneath_rules,
};

/// The newest ABI the `landlock` crate knows: every access right it names is handled, and
/// best effort (the crate's default) drops those the running kernel lacks, so each kernel
/// gets the strictest sandbox it can enforce. Rights not handled are not restricted, so
/// asking for less here would leave them open.
const NEWEST: ABI = ABI::V10;

/// Confines this process (and what it execs): nothing of the file system but `read`
/// (read, list, execute) and `write` (every right), missing paths skipped. Sets
/// no_new_privs. Returns the kernel's Landlock ABI, for `--probe`.
pub fn restrict(read: &[OsString], write: &[OsString], no_network: bool) -> Result<String, String> {
    let abi = available_abi()?;
    let failed = |error: landlock::RulesetError| format!("cannot set up Landlock: {error}");

    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(NEWEST))
        .map_err(failed)?
        // ABI 6: no signals to, and no abstract unix sockets of, processes outside.
        .scope(Scope::from_all(NEWEST))
        .map_err(failed)?;
    if no_network {
        // ABI 4 (TCP), later UDP: handled with no port allowed. The seccomp filter is what
        // holds on older kernels.
        ruleset = ruleset
            .handle_access(AccessNet::from_all(NEWEST))
            .map_err(failed)?;
    }
    // `path_beneath_rules` skips paths it cannot open, and gives a file (not a folder)
    // only the rights that apply to files, which the kernel insists on.
    let status = ruleset
        .create()
        .map_err(failed)?
        .add_rules(path_beneath_rules(read, AccessFs::from_read(NEWEST)))
        .map_err(failed)?
        .add_rules(path_beneath_rules(write, AccessFs::from_all(NEWEST)))
        .map_err(failed)?
        .restrict_self()
        .map_err(|error| format!("cannot enforce the Landlock ruleset: {error}"))?;
    if status.ruleset == RulesetStatus::NotEnforced || !status.no_new_privs {
        return Err(format!(
            "the kernel did not enforce the Landlock ruleset ({status:?}); install bubblewrap"
        ));
    }
    Ok(abi)
}

/// The kernel's Landlock ABI, or why Landlock cannot be used and what to do about it.
fn available_abi() -> Result<String, String> {
    // A `RestrictSelf` with nothing to apply only asks the kernel which ABI it has.
    let status = RestrictSelf::default()
        .no_new_privs(false)
        .apply()
        .map_err(|error| format!("cannot query Landlock: {error}"))?;
    match status.landlock {
        LandlockStatus::Available {
            effective_abi,
            kernel_abi,
        } => Ok(kernel_abi.map_or_else(|| effective_abi.to_string(), |abi| abi.to_string())),
        LandlockStatus::NotEnabled => Err("Landlock is built into this kernel but not \
            enabled: add landlock to the kernel's lsm= boot parameter (e.g. \
            lsm=landlock,lockdown,yama,integrity,apparmor,bpf) or install bubblewrap"
            .into()),
        LandlockStatus::NotImplemented => Err("Landlock is not available: this kernel is \
            older than 5.13 or built without CONFIG_SECURITY_LANDLOCK (or a container's \
            seccomp policy blocks it); upgrade the kernel or install bubblewrap"
            .into()),
    }
}
