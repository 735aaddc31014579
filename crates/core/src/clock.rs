//! The wall clock, in milliseconds since the Unix epoch: the one way the host keeps the
//! time something happened (the window reads it as a JavaScript number).

use std::time::{SystemTime, UNIX_EPOCH};

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or_default()
}
