//! Switchboard's Model Context Protocol engine. It knows nothing of the host or the GUI.

mod version;

pub use version::{ProtocolVersion, UnsupportedVersion};
