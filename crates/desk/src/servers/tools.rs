//! What the person turns on and off from the window without editing the file: each tool of
//! a server, and whether their own calls of tools that may destroy are confirmed first, or
//! closing the window quits the app. All are kept in the configuration; none restarts a
//! server.

use switchboard_core::config::{Language, Theme};

use super::{Servers, ServersError};
use crate::Update;
use crate::switches::{ToolSwitch, turn};

impl Servers {
    /// Every tool the server lists, turned off or not, then those turned off it no longer lists.
    pub fn server_tools(&self, server: &str) -> Result<Vec<ToolSwitch>, ServersError> {
        let config = self.server_config(server)?;
        let listed = self
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
    ) -> Result<(), ServersError> {
        let (at, tool) = (server.to_owned(), tool.to_owned());
        self.edit_announcing(
            move |config| {
                let entry = config
                    .servers
                    .get_mut(&at)
                    .ok_or(ServersError::NoServer(at))?;
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
        self.host.config().settings.confirm_own_destructive_calls
    }

    pub async fn set_confirm_own_destructive_calls(&self, on: bool) -> Result<(), ServersError> {
        self.edit_announcing(
            move |config| {
                config.settings.confirm_own_destructive_calls = on;
                Ok(())
            },
            Update::ConfigChanged { problem: None },
        )
        .await
    }

    /// The language the window speaks; none: the system's.
    pub fn language(&self) -> Option<Language> {
        self.host.config().settings.language
    }

    pub async fn set_language(&self, language: Option<Language>) -> Result<(), ServersError> {
        self.edit_announcing(
            move |config| {
                config.settings.language = language;
                Ok(())
            },
            Update::ConfigChanged { problem: None },
        )
        .await
    }

    pub fn theme(&self) -> Option<Theme> {
        self.host.config().settings.theme
    }

    pub async fn set_theme(&self, theme: Option<Theme>) -> Result<(), ServersError> {
        self.edit_announcing(
            move |config| {
                config.settings.theme = theme;
                Ok(())
            },
            Update::ConfigChanged { problem: None },
        )
        .await
    }

    /// Whether closing the window quits the app, rather than leaving it in the tray.
    pub fn quits_on_close(&self) -> bool {
        self.host.config().settings.quit_on_close
    }

    pub async fn set_quit_on_close(&self, on: bool) -> Result<(), ServersError> {
        self.edit_announcing(
            move |config| {
                config.settings.quit_on_close = on;
                Ok(())
            },
            Update::ConfigChanged { problem: None },
        )
        .await
    }
}
