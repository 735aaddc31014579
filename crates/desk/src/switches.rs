//! What the person turns on and off from the window without editing the file: each tool of
//! a server, and whether their own calls of tools that may destroy are confirmed first.
//! Both are kept in the configuration; neither restarts a server.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::{Desk, DeskError, Inner, Update};

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

impl Desk {
    /// Every tool the server lists, turned off or not, then those turned off it no longer lists.
    pub fn server_tools(&self, server: &str) -> Result<Vec<ToolSwitch>, DeskError> {
        let config = self.server_config(server)?;
        let listed = self
            .inner
            .shared
            .catalog()
            .offer(server)
            .map(|offer| offer.tools)
            .unwrap_or_default();
        let mut switches: Vec<ToolSwitch> = listed
            .into_iter()
            .map(|tool| ToolSwitch {
                on: !config.tool_disabled(&tool.name),
                title: tool
                    .title
                    .or_else(|| tool.annotations.and_then(|a| a.title)),
                description: tool.description,
                name: tool.name,
                listed: true,
            })
            .collect();
        let gone: Vec<ToolSwitch> = config
            .disabled_tools
            .iter()
            .filter(|name| !switches.iter().any(|s| &s.name == *name))
            .map(|name| ToolSwitch {
                name: name.clone(),
                title: None,
                description: None,
                on: false,
                listed: false,
            })
            .collect();
        switches.extend(gone);
        Ok(switches)
    }

    /// Turns `tool` of `server` on or off, at once: offered (or hidden and refused) from the
    /// next catalog read and the next call.
    pub async fn set_tool_enabled(
        &self,
        server: &str,
        tool: &str,
        on: bool,
    ) -> Result<(), DeskError> {
        let (at, tool) = (server.to_owned(), tool.to_owned());
        self.edit_config_announcing(
            move |config| {
                let entry = config.servers.get_mut(&at).ok_or(DeskError::NoServer(at))?;
                turn(&mut entry.disabled_tools, &tool, on);
                Ok(())
            },
            Update::CatalogChanged {
                server: server.to_owned(),
            },
        )
        .await
    }

    /// Whether the person's own calls of tools that may destroy are confirmed first.
    pub fn confirms_own_destructive_calls(&self) -> bool {
        self.config().settings.confirm_own_destructive_calls
    }

    pub async fn set_confirm_own_destructive_calls(&self, on: bool) -> Result<(), DeskError> {
        self.edit_config_announcing(
            move |config| {
                config.settings.confirm_own_destructive_calls = on;
                Ok(())
            },
            Update::ConfigChanged { problem: None },
        )
        .await
    }

    /// Whether closing the window quits the app, rather than leaving it in the tray.
    pub fn quits_on_close(&self) -> bool {
        self.config().settings.quit_on_close
    }

    pub async fn set_quit_on_close(&self, on: bool) -> Result<(), DeskError> {
        self.edit_config_announcing(
            move |config| {
                config.settings.quit_on_close = on;
                Ok(())
            },
            Update::ConfigChanged { problem: None },
        )
        .await
    }
}

/// Takes `tool` out of the tools turned `off`, or puts it in.
pub(super) fn turn(off: &mut std::collections::BTreeSet<String>, tool: &str, on: bool) {
    if on {
        off.remove(tool);
    } else {
        off.insert(tool.to_owned());
    }
}
