//! The tools turned off, for everyone (in a server's entry) or for one agent, and each tool
//! of a server as the window's switch shows it.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::Inner;

/// The tools turned off now, by server: read once for a whole catalog, not the whole
/// configuration copied for it.
pub struct TurnedOff(BTreeMap<String, BTreeSet<String>>);

impl TurnedOff {
    pub(crate) fn now(inner: &Inner) -> Self {
        Self::of(&inner.loaded.lock().config)
    }

    /// The tools `config` turns off.
    pub fn of(config: &switchboard_core::config::Config) -> Self {
        Self(
            config
                .servers
                .iter()
                .filter(|(_, server)| !server.disabled_tools.is_empty())
                .map(|(name, server)| (name.clone(), server.disabled_tools.clone()))
                .collect(),
        )
    }

    pub fn holds(&self, server: &str, tool: &str) -> bool {
        self.0.get(server).is_some_and(|off| off.contains(tool))
    }
}

/// A tool of a server, and whether it is offered to anyone.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct ToolSwitch {
    pub name: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub on: bool,
    /// False for a tool turned off that the server no longer lists: kept so it can be
    /// turned on again (and stays off if the server lists it again).
    pub listed: bool,
}

/// Takes `tool` out of the tools turned `off`, or puts it in.
pub(crate) fn turn(off: &mut std::collections::BTreeSet<String>, tool: &str, on: bool) {
    if on {
        off.remove(tool);
    } else {
        off.insert(tool.to_owned());
    }
}
