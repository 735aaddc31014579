//! Browsing the MCP Registry of the settings and adding a server from it. The registry's
//! entry is turned into the same form the person fills by hand, shown to them with every
//! value it sets, and saved only through that form's own path when they confirm: untrusted,
//! its identity pinned, its secrets in the keyring.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::imports::free_name;
use super::{Servers, ServersError};
use crate::server_settings::{HttpMode, KeyValue, ServerForm, Transport};
use switchboard_core::registry::install::{self, Composed, Launch};
use switchboard_core::registry::{ListQuery, Page, Prompt, Registry, RegistryServer, Way, link};

/// A server of the registry about to be added: what the person is asked.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct InstallProposal {
    pub server: RegistryServer,
    pub way: Way,
    /// A name no configured server has, from the registry's name.
    pub name: String,
    pub prompts: Vec<Prompt>,
}

/// The server of the registry the person chose, how to run it, and their answers.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct RegistryAdd {
    pub server: RegistryServer,
    pub way: Way,
    pub name: String,
    /// By prompt id; a prompt left out takes its default.
    pub answers: BTreeMap<String, String>,
}

impl Servers {
    /// The registry of the settings.
    pub fn registry_url(&self) -> String {
        self.host.config().settings.registry_url
    }

    /// The registry of the settings: the one kept, while the settings name it.
    fn registry(&self) -> Result<Registry, ServersError> {
        let url = self.registry_url();
        let mut kept = self.registry.lock();
        if let Some(registry) = kept.as_ref().filter(|r| r.made_for(&url)) {
            return Ok(registry.clone());
        }
        let registry = Registry::new(&url)?;
        *kept = Some(registry.clone());
        Ok(registry)
    }

    /// A page of the registry's servers whose names hold `query.search`.
    pub async fn registry_servers(&self, query: &ListQuery) -> Result<Page, ServersError> {
        Ok(self.registry()?.list(query).await?)
    }

    /// The server an install link names, from the registry of the settings (never from
    /// anywhere the link says).
    pub async fn install_link(&self, link: &str) -> Result<RegistryServer, ServersError> {
        let wanted = link::parse(link)?;
        Ok(self
            .registry()?
            .server(&wanted.name, &wanted.version)
            .await?)
    }

    /// What adding `server` the `way` chosen asks of the person.
    pub fn install_proposal(
        &self,
        server: RegistryServer,
        way: Way,
    ) -> Result<InstallProposal, ServersError> {
        let prompts = install::prompts(&server, way)?;
        let config = self.host.config();
        let taken: BTreeSet<&str> = config.servers.keys().map(String::as_str).collect();
        Ok(InstallProposal {
            name: free_name(&install::local_name(&server), &taken),
            server,
            way,
            prompts,
        })
    }

    /// The server entry `add` describes, as the form saves it: untrusted, its secret
    /// values marked for the keyring. Nothing is saved here.
    pub fn compose_install(&self, add: &RegistryAdd) -> Result<ServerForm, ServersError> {
        let launch = install::compose(&add.server, add.way, &add.answers)?;
        Ok(form_of(add.name.trim(), launch))
    }
}

fn form_of(name: &str, launch: Launch) -> ServerForm {
    let rows = |values: Vec<Composed>| {
        values
            .into_iter()
            .map(|v| KeyValue {
                key: v.name,
                value: v.value,
                secret: v.secret,
                stored: false,
            })
            .collect()
    };
    let mut form = ServerForm {
        name: name.to_owned(),
        ..ServerForm::default()
    };
    match launch {
        Launch::Command { command, args, env } => {
            form.command = command;
            form.args = args;
            form.env = rows(env);
        }
        Launch::Remote { url, sse, headers } => {
            form.transport = Transport::Http;
            form.url = url;
            form.http_mode = match sse {
                true => HttpMode::LegacySse,
                false => HttpMode::StreamableHttp,
            };
            form.headers = rows(headers);
        }
    }
    form
}
