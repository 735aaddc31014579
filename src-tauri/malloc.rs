//! The app's own heap. glibc gives each thread that allocates under contention an arena
//! of its own, up to eight per core, and keeps what each arena once held: the async
//! runtime's workers and the web view's threads spread a small heap over many arenas.
//! Two arenas hold it (docs/performance.md); the app is not bound by allocation speed.
//! Set for this process only (with `mallopt`, as the environment variable would be read
//! too late): the servers the app starts keep their own allocators' defaults.

#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn limit_arenas() {
    // SAFETY: `mallopt` only sets a glibc tunable; it is called before the app starts
    // any thread of its own.
    #[allow(unsafe_code)]
    let set = unsafe { libc::mallopt(libc::M_ARENA_MAX, 2) };
    if set != 1 {
        tracing::warn!("malloc's arena limit could not be set");
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn limit_arenas() {}
