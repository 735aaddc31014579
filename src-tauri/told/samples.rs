//! The samples the window's tests read: what the host says, by kind and in its English,
//! written by these tests (`SWITCHBOARD_WRITE_BINDINGS=1`) and failing them when stale.
//! The window says each in English exactly as the host does, and in Chinese.

mod decided;
mod errors;
mod host_words;

/// Fails when the samples in `path` are not `samples` (writes them, when asked to).
fn current(path: &str, samples: &impl serde::Serialize) {
    let fresh = serde_json::to_string_pretty(samples).expect("samples") + "\n";
    if std::env::var_os("SWITCHBOARD_WRITE_BINDINGS").is_some() {
        std::fs::write(path, &fresh).expect("write the samples");
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        committed == fresh,
        "{path} is stale: run `SWITCHBOARD_WRITE_BINDINGS=1 cargo test -p switchboard told`"
    );
}
