//! Servers from the MCP Registry: its API ([`client`]), its entries ([`entry`]), the
//! server entry composed from one for the person to review ([`install`]), and the
//! `switchboard://install` links that open that review ([`link`]).

pub mod client;
pub mod entry;
pub mod install;
pub mod link;

pub use client::{ListQuery, Page, Registry, RegistryError, Unreadable};
pub use entry::RegistryServer;
pub use install::{InstallError, Prompt, Sets, Way};
pub use link::{InstallLink, InstallLinkError};

/// The official registry, unless `settings.registryUrl` names another.
pub const DEFAULT_URL: &str = "https://registry.modelcontextprotocol.io";
