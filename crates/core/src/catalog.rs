//! The catalog: every running server's tools, resources, templates and prompts in one
//! place, searchable across servers. Each tool has a stable id that is unique across
//! servers and fits the 64-character tool-name limit of LLM providers.

use std::collections::BTreeMap;
use std::hash::Hasher;
use std::sync::{Arc, RwLock};

use serde::Serialize;
use switchboard_mcp::types::skills::Skill;
use switchboard_mcp::types::{Prompt, Resource, ResourceTemplate, Tool};

/// What one server offers, as last listed.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Offer {
    #[cfg_attr(feature = "specta", specta(type = Vec<crate::json::mcp::Tool>))]
    pub tools: Vec<Tool>,
    #[cfg_attr(feature = "specta", specta(type = Vec<crate::json::mcp::Resource>))]
    pub resources: Vec<Resource>,
    #[cfg_attr(feature = "specta", specta(type = Vec<crate::json::mcp::ResourceTemplate>))]
    pub templates: Vec<ResourceTemplate>,
    #[cfg_attr(feature = "specta", specta(type = Vec<crate::json::mcp::Prompt>))]
    pub prompts: Vec<Prompt>,
    /// Its skills (SEP-2640) as listed: names and manifests, no file read. The window asks
    /// for them apart (`Explorer::skills`).
    #[serde(skip)]
    pub skills: Vec<Skill>,
}

/// A tool as the catalog presents it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CatalogTool {
    /// `server__tool`, made safe for LLM providers (`[A-Za-z0-9_-]`, at most 64 characters).
    pub id: String,
    pub server: String,
    pub tool: Tool,
}

/// One search hit.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Found {
    Tool(CatalogTool),
    Resource {
        server: String,
        resource: Resource,
    },
    Template {
        server: String,
        template: ResourceTemplate,
    },
    Prompt {
        server: String,
        prompt: Prompt,
    },
}

#[derive(Debug, Clone, Default)]
pub struct Catalog {
    offers: Arc<RwLock<BTreeMap<String, Offer>>>,
}

const MAX_ID: usize = 64;

impl Catalog {
    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Offer>> {
        self.offers.read().unwrap_or_else(|p| p.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<String, Offer>> {
        self.offers.write().unwrap_or_else(|p| p.into_inner())
    }

    /// Replaces what `server` offers (after it started, or announced a change).
    pub fn set(&self, server: &str, offer: Offer) {
        self.write().insert(server.to_owned(), offer);
    }

    /// Forgets a server that stopped.
    pub fn remove(&self, server: &str) {
        self.write().remove(server);
    }

    pub fn offer(&self, server: &str) -> Option<Offer> {
        self.read().get(server).cloned()
    }

    /// Every resource of every server (by server then as listed): the server's name, the
    /// resource's URI and name.
    pub fn resources(&self) -> Vec<(String, String, String)> {
        self.read()
            .iter()
            .flat_map(|(server, offer)| {
                offer
                    .resources
                    .iter()
                    .map(|r| (server.clone(), r.uri.clone(), r.name.clone()))
            })
            .collect()
    }

    /// Every skill of every server (by server then as listed), with its server's name.
    pub fn skills(&self) -> Vec<(String, Skill)> {
        self.read()
            .iter()
            .flat_map(|(server, offer)| offer.skills.iter().map(|s| (server.clone(), s.clone())))
            .collect()
    }

    /// Every prompt of every server (by server then as listed), with its server's name.
    pub fn prompts(&self) -> Vec<(String, Prompt)> {
        self.read()
            .iter()
            .flat_map(|(server, offer)| offer.prompts.iter().map(|p| (server.clone(), p.clone())))
            .collect()
    }

    /// Every tool of every server, by server then as listed.
    pub fn tools(&self) -> Vec<CatalogTool> {
        self.read()
            .iter()
            .flat_map(|(server, offer)| {
                offer.tools.iter().map(|tool| CatalogTool {
                    id: tool_id(server, &tool.name),
                    server: server.clone(),
                    tool: tool.clone(),
                })
            })
            .collect()
    }

    /// The tool `server` lists under `name`.
    pub fn find_tool(&self, server: &str, name: &str) -> Option<Tool> {
        let offers = self.read();
        offers
            .get(server)?
            .tools
            .iter()
            .find(|t| t.name == name)
            .cloned()
    }

    /// The server and name of the tool `id` names, among the servers `include` takes,
    /// found without copying the catalog.
    pub fn tool_named(
        &self,
        id: &str,
        include: impl Fn(&str, &str) -> bool,
    ) -> Option<(String, String)> {
        self.read().iter().find_map(|(server, offer)| {
            offer
                .tools
                .iter()
                .find(|tool| include(server, &tool.name) && tool_id(server, &tool.name) == id)
                .map(|tool| (server.clone(), tool.name.clone()))
        })
    }

    /// The tool an id names.
    pub fn tool(&self, id: &str) -> Option<CatalogTool> {
        self.tools().into_iter().find(|t| t.id == id)
    }

    /// Everything whose name, title or description holds every word of `query`, ignoring
    /// case; `server` narrows the search to one server.
    pub fn search(&self, query: &str, server: Option<&str>) -> Vec<Found> {
        let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        let hit = |fields: &[Option<&str>]| {
            let text = fields
                .iter()
                .flatten()
                .map(|f| f.to_lowercase())
                .collect::<Vec<_>>()
                .join(" ");
            words.iter().all(|w| text.contains(w))
        };
        let offers = self.read();
        let mut found = Vec::new();
        for (name, offer) in offers
            .iter()
            .filter(|(name, _)| server.is_none_or(|s| s == *name))
        {
            for tool in &offer.tools {
                if hit(&[
                    Some(&tool.name),
                    tool.title.as_deref(),
                    tool.description.as_deref(),
                ]) {
                    found.push(Found::Tool(CatalogTool {
                        id: tool_id(name, &tool.name),
                        server: name.clone(),
                        tool: tool.clone(),
                    }));
                }
            }
            for resource in &offer.resources {
                if hit(&[
                    Some(&resource.name),
                    resource.title.as_deref(),
                    resource.description.as_deref(),
                    Some(&resource.uri),
                ]) {
                    found.push(Found::Resource {
                        server: name.clone(),
                        resource: resource.clone(),
                    });
                }
            }
            for template in &offer.templates {
                if hit(&[
                    Some(&template.name),
                    template.title.as_deref(),
                    template.description.as_deref(),
                ]) {
                    found.push(Found::Template {
                        server: name.clone(),
                        template: template.clone(),
                    });
                }
            }
            for prompt in &offer.prompts {
                if hit(&[
                    Some(&prompt.name),
                    prompt.title.as_deref(),
                    prompt.description.as_deref(),
                ]) {
                    found.push(Found::Prompt {
                        server: name.clone(),
                        prompt: prompt.clone(),
                    });
                }
            }
        }
        found
    }
}

/// `server__tool` with every other character replaced by `_`; when that changed or
/// shortened the name, a hash of the original pair keeps the id unique (and stable).
pub fn tool_id(server: &str, tool: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let plain = format!("{}__{}", clean(server), clean(tool));
    let exact = plain.len() <= MAX_ID
        && clean(server) == server
        && clean(tool) == tool
        && !server.contains("__");
    if exact {
        return plain;
    }
    // FNV-1a (the `fnv` crate): the same in every build and run, as a tool's id must be.
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(format!("{server}\0{tool}").as_bytes());
    let hash = format!("{:08x}", hasher.finish() as u32);
    let keep = MAX_ID - hash.len() - 1;
    let head: String = plain.chars().take(keep).collect();
    format!("{head}_{hash}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_hashed_tool_id_is_the_one_earlier_versions_gave() {
        // Rules and tool toggles name tools by id: the hash of FNV-1a 64, its low 32 bits.
        assert_eq!(
            tool_id("my server", "do.thing"),
            "my_server__do_thing_eb6b2f91"
        );
    }

    fn tool(name: &str, description: &str) -> Tool {
        serde_json::from_value(
            json!({"name": name, "description": description, "inputSchema": {"type": "object"}}),
        )
        .unwrap()
    }

    #[test]
    fn plain_names_give_readable_ids() {
        assert_eq!(tool_id("github", "create_issue"), "github__create_issue");
    }

    #[test]
    fn ids_are_safe_short_unique_and_stable() {
        let long = "x".repeat(100);
        let pairs = [
            ("my server", "do.it"),
            ("my_server", "do_it"),
            ("a__b", "c"),
            ("a", "b__c"),
            (long.as_str(), "t"),
            (long.as_str(), "u"),
        ];
        let ids: Vec<String> = pairs.iter().map(|(s, t)| tool_id(s, t)).collect();
        for id in &ids {
            assert!(id.len() <= 64, "{id}");
            assert!(
                id.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
                "{id}"
            );
        }
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "{ids:?}");
        assert_eq!(
            tool_id("my server", "do.it"),
            ids[0],
            "the same pair always gets the same id"
        );
    }

    #[test]
    fn tools_of_every_server_are_listed_and_found_by_id() {
        let catalog = Catalog::default();
        catalog.set(
            "a",
            Offer {
                tools: vec![tool("echo", "Echo text back")],
                ..Offer::default()
            },
        );
        catalog.set(
            "b",
            Offer {
                tools: vec![tool("echo", "Another echo"), tool("sum", "Add numbers")],
                ..Offer::default()
            },
        );
        let ids: Vec<String> = catalog.tools().into_iter().map(|t| t.id).collect();
        assert_eq!(ids, ["a__echo", "b__echo", "b__sum"]);
        assert_eq!(catalog.tool("b__sum").unwrap().server, "b");
        catalog.remove("b");
        assert_eq!(catalog.tools().len(), 1);
        assert!(catalog.tool("b__sum").is_none());
    }

    #[test]
    fn search_matches_every_word_across_servers_or_within_one() {
        let catalog = Catalog::default();
        catalog.set(
            "files",
            Offer {
                tools: vec![tool("read_file", "Read a text file")],
                ..Offer::default()
            },
        );
        catalog.set(
            "web",
            Offer {
                tools: vec![tool("fetch", "Fetch a URL as text")],
                prompts: vec![
                    serde_json::from_value(
                        json!({"name": "summarize", "description": "Summarize a text"}),
                    )
                    .unwrap(),
                ],
                ..Offer::default()
            },
        );
        let names = |found: Vec<Found>| -> Vec<String> {
            found
                .into_iter()
                .map(|f| match f {
                    Found::Tool(t) => t.id,
                    Found::Prompt { prompt, .. } => prompt.name,
                    Found::Resource { resource, .. } => resource.name,
                    Found::Template { template, .. } => template.name,
                })
                .collect()
        };
        assert_eq!(
            names(catalog.search("TEXT", None)),
            ["files__read_file", "web__fetch", "summarize"]
        );
        assert_eq!(names(catalog.search("text url", None)), ["web__fetch"]);
        assert_eq!(
            names(catalog.search("text", Some("files"))),
            ["files__read_file"]
        );
        assert!(catalog.search("nothing here", None).is_empty());
    }
}
