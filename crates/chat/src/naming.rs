//! The catalog's tools as a model is offered them: under names that every provider takes
//! (`^[a-zA-Z0-9_-]{1,64}$`), that no two tools share whatever their servers call them,
//! and that lead back exactly to the server and the tool.
//!
//! A name is `server__tool` when both are already plain and short enough; otherwise its
//! characters outside the allowed set become `_`, it is cut to fit, and a short hash of
//! the exact pair is added, so two pairs that clean to the same text stay apart. Names are
//! given over the whole catalog, before a conversation's toggles, so that switching a
//! tool on or off never renames another.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use switchboard_mcp::types::{Tool, apps};

use switchboard_core::catalog::CatalogTool;

/// The longest name providers take.
pub const MAX_NAME: usize = 64;
/// The most tools a model is offered: OpenAI's API refuses more, and above it models choose
/// worse. The rest are left out, and the person is told which.
pub const MANY_TOOLS: usize = 128;
/// Hex digits of the hash a changed name carries.
const HASH_DIGITS: usize = 8;

/// Which servers and tools a conversation lets the model see: all of them unless switched
/// off here.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enablement {
    /// Servers none of whose tools the model sees.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub servers_off: BTreeSet<String>,
    /// Tools the model does not see, by server.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub tools_off: BTreeMap<String, BTreeSet<String>>,
}

impl Enablement {
    pub fn allows(&self, server: &str, tool: &str) -> bool {
        !self.servers_off.contains(server)
            && !self
                .tools_off
                .get(server)
                .is_some_and(|off| off.contains(tool))
    }

    pub fn set_server(&mut self, server: &str, on: bool) {
        if on {
            self.servers_off.remove(server);
        } else {
            self.servers_off.insert(server.to_owned());
        }
    }

    pub fn set_tool(&mut self, server: &str, tool: &str, on: bool) {
        if on {
            if let Some(off) = self.tools_off.get_mut(server) {
                off.remove(tool);
                if off.is_empty() {
                    self.tools_off.remove(server);
                }
            }
        } else {
            self.tools_off
                .entry(server.to_owned())
                .or_default()
                .insert(tool.to_owned());
        }
    }
}

/// A tool as a model is offered it.
#[derive(Debug, Clone, PartialEq)]
pub struct OfferedTool {
    /// The name the model sees and calls it by.
    pub name: String,
    pub server: String,
    pub tool: Tool,
}

impl OfferedTool {
    /// The tool as the provider is told of it.
    pub fn to_provider(&self) -> switchboard_providers::Tool {
        let description = match (&self.tool.title, &self.tool.description) {
            (Some(title), Some(d)) => Some(format!("{title}: {d}")),
            (title, d) => d.clone().or_else(|| title.clone()),
        };
        switchboard_providers::Tool {
            name: self.name.clone(),
            description,
            parameters: serde_json::Value::Object(self.tool.input_schema.clone()),
        }
    }
}

/// The tools one conversation offers its model, by the names it sees.
#[derive(Debug, Clone, Default)]
pub struct Toolset {
    tools: Vec<OfferedTool>,
    by_name: HashMap<String, usize>,
    /// The tools on beyond [`MANY_TOOLS`], by server and name: not offered.
    left_out: Vec<(String, String)>,
}

impl Toolset {
    /// The catalog's tools (in its order: by server, then as listed) that `enablement`
    /// lets through, named for a model, the first [`MANY_TOOLS`] of them.
    pub fn new(catalog: Vec<CatalogTool>, enablement: &Enablement) -> Self {
        Self::all(catalog, enablement).capped()
    }

    /// The tools a model that searches them may find: every one `enablement` lets through.
    pub fn all(catalog: Vec<CatalogTool>, enablement: &Enablement) -> Self {
        let pairs: Vec<(&str, &str)> = catalog
            .iter()
            .map(|t| (t.server.as_str(), t.tool.name.as_str()))
            .collect();
        let names = names_for(&pairs);
        let mut set = Self::default();
        for (entry, name) in catalog.into_iter().zip(names) {
            // A tool only its view may call is not a model's.
            if !enablement.allows(&entry.server, &entry.tool.name)
                || !apps::offered_to_models(&entry.tool)
            {
                continue;
            }
            set.by_name.insert(name.clone(), set.tools.len());
            set.tools.push(OfferedTool {
                name,
                server: entry.server,
                tool: entry.tool,
            });
        }
        set
    }

    /// The first [`MANY_TOOLS`] tools; the rest left out.
    pub fn capped(mut self) -> Self {
        let beyond = self.tools.split_off(self.tools.len().min(MANY_TOOLS));
        for tool in beyond {
            self.by_name.remove(&tool.name);
            self.left_out.push((tool.server, tool.tool.name));
        }
        self
    }

    /// The tool a model called by `name`, if offered.
    pub fn get(&self, name: &str) -> Option<&OfferedTool> {
        self.by_name.get(name).map(|&i| &self.tools[i])
    }

    pub fn tools(&self) -> &[OfferedTool] {
        &self.tools
    }

    pub fn len(&self) -> usize {
        self.tools.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The tools switched on but not offered, beyond [`MANY_TOOLS`]: by server and name.
    pub fn left_out(&self) -> &[(String, String)] {
        &self.left_out
    }

    /// The tools as the provider is told of them.
    pub fn to_provider(&self) -> Vec<switchboard_providers::Tool> {
        self.tools.iter().map(OfferedTool::to_provider).collect()
    }
}

/// Whether a provider takes `name` as a tool name.
pub fn valid_name(name: &str) -> bool {
    (1..=MAX_NAME).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn clean(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// `server__tool` if that is a valid name that leads back unambiguously.
fn plain(server: &str, tool: &str) -> Option<String> {
    let name = format!("{server}__{tool}");
    let unambiguous = !server.contains("__") && clean(server) == server && clean(tool) == tool;
    (unambiguous && valid_name(&name)).then_some(name)
}

/// The cleaned `server__tool`, cut to leave room for `_` and a hash of the exact pair
/// (and of `salt`, when a first hash was taken).
fn hashed(server: &str, tool: &str, salt: u32) -> String {
    let mut hasher = Sha256::new();
    hasher.update(server.as_bytes());
    hasher.update([0]);
    hasher.update(tool.as_bytes());
    if salt > 0 {
        hasher.update(salt.to_be_bytes());
    }
    marked(&format!("{server}__{tool}"), hasher)
}

/// `text` cleaned, cut to leave room for `_` and the start of the hash `hasher` makes.
fn marked(text: &str, hasher: Sha256) -> String {
    let digest = hasher.finalize();
    let hex: String = digest
        .iter()
        .take(HASH_DIGITS / 2)
        .map(|b| format!("{b:02x}"))
        .collect();
    let head = clean(text);
    let keep = MAX_NAME - HASH_DIGITS - 1;
    // Cleaned text is ASCII: cutting at a byte is cutting at a character.
    let head = &head[..head.len().min(keep)];
    format!("{head}_{hex}")
}

/// A name every provider takes for a tool known by `name` alone (a sampling request's):
/// itself when it is one already, else cleaned, cut and marked with a hash of it, so that
/// it stays apart from the others and leads back to it.
pub fn provider_name(name: &str) -> String {
    if valid_name(name) {
        return name.to_owned();
    }
    let mut hasher = Sha256::new();
    hasher.update(name.as_bytes());
    marked(name, hasher)
}

/// A name for each `(server, tool)` pair, all distinct (the pairs are distinct: a server
/// lists each tool once). Plain names are kept unless another pair claims the same;
/// every claimant of a shared name is hashed, so none is favoured by its place.
pub fn names_for(pairs: &[(&str, &str)]) -> Vec<String> {
    let wanted: Vec<Option<String>> = pairs.iter().map(|(s, t)| plain(s, t)).collect();
    let mut claims: HashMap<&str, usize> = HashMap::new();
    for name in wanted.iter().flatten() {
        *claims.entry(name.as_str()).or_default() += 1;
    }
    let mut taken: BTreeSet<String> = wanted
        .iter()
        .flatten()
        .filter(|name| claims[name.as_str()] == 1)
        .cloned()
        .collect();
    let mut names = Vec::with_capacity(pairs.len());
    for ((server, tool), want) in pairs.iter().zip(&wanted) {
        match want {
            Some(name) if claims[name.as_str()] == 1 => names.push(name.clone()),
            _ => {
                let mut salt = 0;
                let mut name = hashed(server, tool, salt);
                while !taken.insert(name.clone()) {
                    salt += 1;
                    name = hashed(server, tool, salt);
                }
                names.push(name);
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(name: &str) -> Tool {
        serde_json::from_value(json!({"name": name, "inputSchema": {"type": "object"}}))
            .expect("a tool")
    }

    fn entry(server: &str, name: &str) -> CatalogTool {
        CatalogTool {
            id: String::new(),
            server: server.to_owned(),
            tool: tool(name),
        }
    }

    #[test]
    fn plain_pairs_read_as_they_are() {
        assert_eq!(
            names_for(&[("github", "create_issue"), ("demo", "get-sum")]),
            ["github__create_issue", "demo__get-sum"]
        );
    }

    #[test]
    fn changed_long_or_ambiguous_pairs_get_a_hash_and_stay_apart() {
        let long = "x".repeat(100);
        let pairs = [
            ("my server", "do.it"),
            ("my_server", "do_it"),
            ("a__b", "c"),
            ("a", "b__c"),
            (long.as_str(), "t"),
            (long.as_str(), "u"),
            ("é", "t"),
            ("_", "t"),
        ];
        let names = names_for(&pairs);
        assert_eq!(names[1], "my_server__do_it");
        assert_eq!(names[3], "a__b__c", "only the ambiguous server is hashed");
        assert!(names[0].starts_with("my_server__do_it_"), "{}", names[0]);
        assert!(names[4].len() == MAX_NAME && names[4].starts_with("xxxx"));
        check(&pairs, &names);
    }

    #[test]
    fn a_name_two_pairs_claim_goes_to_neither() {
        // A server may name a tool to look like another's cleaned name.
        let crafted = hashed("my server", "t", 0);
        let tool_part = crafted.strip_prefix("my_server__").expect("its prefix");
        let pairs = [("my server", "t"), ("my_server", tool_part), ("b", "x")];
        let names = names_for(&pairs);
        check(&pairs, &names);
        assert_eq!(names[2], "b__x");
        // Twice the same plain claim: both hashed, in either order.
        let twice = names_for(&[("s", "t"), ("s", "t")]);
        assert_ne!(twice[0], twice[1]);
        assert!(twice.iter().all(|n| n.starts_with("s__t_")));
    }

    /// Every name valid, distinct, and the same whatever else the catalog holds.
    fn check(pairs: &[(&str, &str)], names: &[String]) {
        assert_eq!(names.len(), pairs.len());
        for name in names {
            assert!(valid_name(name), "{name:?}");
        }
        let distinct: BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "{names:?}");
    }

    /// A small deterministic generator: no dependency for property tests this cheap.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        fn text(&mut self) -> String {
            const PIECES: [&str; 10] = ["a", "Z", "9", "_", "__", "-", ".", " ", "é", "ツ"];
            let len = match self.below(4) {
                0 => self.below(3),
                1 => 60 + self.below(20),
                _ => 1 + self.below(12),
            };
            (0..len).map(|_| PIECES[self.below(PIECES.len())]).collect()
        }
    }

    #[test]
    fn any_catalog_gets_valid_distinct_names_that_lead_back() {
        let mut rng = Rng(0x5eed_1234_abcd_0001);
        for _ in 0..300 {
            let servers: Vec<String> = (0..1 + rng.below(4)).map(|_| rng.text()).collect();
            let mut catalog = Vec::new();
            for server in &servers {
                for _ in 0..rng.below(6) {
                    let name = rng.text();
                    // A server lists each tool once.
                    if !catalog
                        .iter()
                        .any(|e: &CatalogTool| e.server == *server && e.tool.name == name)
                    {
                        catalog.push(entry(server, &name));
                    }
                }
            }
            let set = Toolset::new(catalog.clone(), &Enablement::default());
            let names: Vec<String> = set.tools().iter().map(|t| t.name.clone()).collect();
            let pairs: Vec<(&str, &str)> = catalog
                .iter()
                .map(|e| (e.server.as_str(), e.tool.name.as_str()))
                .collect();
            check(&pairs, &names);
            for (offered, original) in set.tools().iter().zip(&catalog) {
                let back = set.get(&offered.name).expect("found by its name");
                assert_eq!(
                    (&back.server, &back.tool.name),
                    (&original.server, &original.tool.name)
                );
            }
            assert_eq!(names_for(&pairs), names, "the same catalog, the same names");
        }
    }

    #[test]
    fn toggles_hide_servers_and_tools_without_renaming_the_rest() {
        let catalog = vec![
            entry("a", "x"),
            entry("a", "y"),
            entry("b", "x"),
            entry("my server", "z"),
        ];
        let all = Toolset::new(catalog.clone(), &Enablement::default());
        assert_eq!(all.len(), 4);
        let mut choice = Enablement::default();
        choice.set_server("b", false);
        choice.set_tool("a", "y", false);
        let some = Toolset::new(catalog.clone(), &choice);
        let names: Vec<&str> = some.tools().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a__x", all.tools()[3].name.as_str()]);
        assert!(some.get("a__y").is_none() && some.get("b__x").is_none());
        choice.set_server("b", true);
        choice.set_tool("a", "y", true);
        assert_eq!(choice, Enablement::default());
    }

    #[test]
    fn above_128_tools_the_first_are_offered_and_the_rest_named_as_left_out() {
        let catalog: Vec<CatalogTool> = (0..MANY_TOOLS + 2)
            .map(|i| entry("s", &format!("t{i}")))
            .collect();
        let set = Toolset::new(catalog[..MANY_TOOLS].to_vec(), &Enablement::default());
        assert!(set.left_out().is_empty());
        let mut choice = Enablement::default();
        choice.set_tool("s", "t0", false);
        let catalog_again = || catalog.clone();
        let set = Toolset::new(catalog.clone(), &choice);
        assert_eq!(set.len(), MANY_TOOLS);
        assert_eq!(set.to_provider().len(), MANY_TOOLS);
        assert_eq!(set.left_out(), [("s".to_owned(), "t129".to_owned())]);
        assert!(set.get("s__t129").is_none(), "not offered, not callable");
        let searched = Toolset::all(catalog_again(), &choice);
        assert_eq!(searched.len(), MANY_TOOLS + 1, "all of them may be found");
        assert!(searched.left_out().is_empty() && searched.get("s__t129").is_some());
    }

    #[test]
    fn the_provider_sees_the_name_the_description_and_the_schema() {
        let mut t = tool("get-sum");
        t.title = Some("Add".into());
        t.description = Some("Adds a and b".into());
        let set = Toolset::new(
            vec![CatalogTool {
                id: String::new(),
                server: "demo".into(),
                tool: t,
            }],
            &Enablement::default(),
        );
        let offered = set.to_provider();
        assert_eq!(offered[0].name, "demo__get-sum");
        assert_eq!(offered[0].description.as_deref(), Some("Add: Adds a and b"));
        assert_eq!(offered[0].parameters, json!({"type": "object"}));
    }

    #[test]
    fn a_tool_only_its_view_may_call_is_not_offered() {
        let mut app_only = entry("weather", "refresh");
        app_only.tool.meta = json!({"ui": {"resourceUri": "ui://weather/view.html",
            "visibility": ["app"]}})
        .as_object()
        .cloned();
        let mut with_view = entry("weather", "forecast");
        with_view.tool.meta = json!({"ui": {"resourceUri": "ui://weather/view.html"}})
            .as_object()
            .cloned();
        let set = Toolset::all(vec![app_only, with_view], &Enablement::default());
        let names: Vec<&str> = set.tools().iter().map(|t| t.tool.name.as_str()).collect();
        assert_eq!(names, ["forecast"]);
    }
}
