//! How the agent names what the servers offer, and how those names lead back: tools and
//! prompts as `server__name` (the catalog's ids: collision-free, at most 64 characters,
//! stable across restarts); resources by their own URIs, which tool results carry too,
//! mapped back to the server that offers them.

use switchboard_core::catalog::{Offer, tool_id};

/// How a gateway names the servers' tools and prompts to its agents: each as
/// `server__name`, but those of its [`Naming::bare`] server, if any, under their own names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Naming {
    bare: Option<String>,
}

impl Naming {
    /// Every server's tools and prompts as `server__name`: how the person's gateway names
    /// them, always.
    pub fn prefixed() -> Self {
        Self::default()
    }

    /// `server`'s tools and prompts under their own names, the others' as `server__name`:
    /// for a test that must find one server's tools by the names that server gives them
    /// (the conformance suite's server scenarios call theirs by name). Not a setting.
    pub fn bare(server: &str) -> Self {
        Self {
            bare: Some(server.to_owned()),
        }
    }

    /// The name the agent sees for `name` of `server`.
    pub(super) fn shown(&self, server: &str, name: &str) -> String {
        match &self.bare {
            Some(bare) if bare == server => name.to_owned(),
            _ => id(server, name),
        }
    }

    /// The catalog's id of the tool the agent named `seen`: that of the bare server's tool
    /// of that name, if it offers one (among the `offers` it is asked for), else `seen`.
    pub(super) fn tool_id(
        &self,
        seen: &str,
        offers: impl FnOnce() -> Vec<(String, Offer)>,
    ) -> String {
        let Some(bare) = &self.bare else {
            return seen.to_owned();
        };
        let offered = offers()
            .iter()
            .any(|(server, o)| server == bare && o.tools.iter().any(|t| t.name == seen));
        if offered {
            id(bare, seen)
        } else {
            seen.to_owned()
        }
    }
}

/// An item of one server, by its own name there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub server: String,
    pub name: String,
}

/// The name the agent sees for `name` of `server`.
pub fn id(server: &str, name: &str) -> String {
    tool_id(server, name)
}

/// The item the agent named `id_seen`, among each server's items as `names` lists them.
pub fn find(
    naming: &Naming,
    offers: &[(String, Offer)],
    id_seen: &str,
    names: impl Fn(&Offer) -> Vec<&str>,
) -> Option<Named> {
    offers.iter().find_map(|(server, offer)| {
        names(offer)
            .into_iter()
            .find(|name| naming.shown(server, name) == id_seen)
            .map(|name| Named {
                server: server.clone(),
                name: name.to_owned(),
            })
    })
}

/// The servers that may serve `uri`, likeliest first: those that list it, else those with
/// a template it matches (the longest fixed start first). Never a server that offers
/// neither: what an agent reads goes only where it can come from.
pub fn owners_of_uri(offers: &[(String, Offer)], uri: &str) -> Vec<String> {
    let listing: Vec<String> = offers
        .iter()
        .filter(|(_, offer)| offer.resources.iter().any(|r| r.uri == uri))
        .map(|(server, _)| server.clone())
        .collect();
    if !listing.is_empty() {
        return listing;
    }
    let mut templated: Vec<(usize, String)> = offers
        .iter()
        .filter_map(|(server, offer)| {
            offer
                .templates
                .iter()
                .filter(|t| matches_template(&t.uri_template, uri))
                .map(|t| fixed_start(&t.uri_template).len())
                .max()
                .map(|len| (len, server.clone()))
        })
        .collect();
    templated.sort_by_key(|(len, _)| std::cmp::Reverse(*len));
    templated.into_iter().map(|(_, server)| server).collect()
}

/// The server that offers `template` (a resource template, by its text), if any.
pub fn owner_of_template(offers: &[(String, Offer)], template: &str) -> Option<String> {
    offers
        .iter()
        .find(|(_, o)| o.templates.iter().any(|t| t.uri_template == template))
        .map(|(server, _)| server.clone())
}

/// Whether `uri` may be an expansion of the RFC 6570 `template`: its literal text exactly,
/// each expression as what its operator can expand to (a simple `{x}` never holds `/`, `?`
/// or `#`; `{+x}` and `{#x}` may hold anything).
fn matches_template(template: &str, uri: &str) -> bool {
    let mut pattern = String::from("^");
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        pattern.push_str(&regex::escape(&rest[..open]));
        let Some(close) = rest[open..].find('}') else {
            return false;
        };
        let expression = &rest[open + 1..open + close];
        pattern.push_str(match expression.chars().next() {
            Some('+') => ".*",
            Some('#') => "(#.*)?",
            Some('.') => r"(\.[^/?#]*)*",
            Some('/') => "(/[^/?#]*)*",
            Some(';') => "(;[^/?#]*)*",
            Some('?') => r"(\?[^#]*)?",
            Some('&') => "(&[^#]*)*",
            _ => "[^/?#]*",
        });
        rest = &rest[open + close + 1..];
    }
    pattern.push_str(&regex::escape(rest));
    pattern.push('$');
    regex::Regex::new(&pattern).is_ok_and(|re| re.is_match(uri))
}

/// A URI template up to its first expression (`file:///{path}` -> `file:///`).
fn fixed_start(template: &str) -> &str {
    template.split('{').next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn offer(resources: &[&str], templates: &[&str]) -> Offer {
        Offer {
            resources: resources
                .iter()
                .map(|uri| serde_json::from_value(json!({"uri": uri, "name": uri})).unwrap())
                .collect(),
            templates: templates
                .iter()
                .map(|t| serde_json::from_value(json!({"uriTemplate": t, "name": t})).unwrap())
                .collect(),
            ..Offer::default()
        }
    }

    #[test]
    fn a_uri_leads_to_the_server_listing_it_else_to_those_whose_templates_match_it() {
        let offers = vec![
            ("a".to_owned(), offer(&["demo://notes/1"], &["demo://{+x}"])),
            ("b".to_owned(), offer(&[], &["demo://notes/{id}"])),
            ("c".to_owned(), offer(&["other://x"], &["file:///{path}"])),
            ("d".to_owned(), Offer::default()),
        ];
        assert_eq!(owners_of_uri(&offers, "demo://notes/1"), ["a"]);
        assert_eq!(owners_of_uri(&offers, "demo://notes/2"), ["b", "a"]);
        // A simple expression never spans a `/`: only a's reserved one does.
        assert_eq!(owners_of_uri(&offers, "demo://notes/2/secret"), ["a"]);
        // Nothing lists it and no template makes it: no server at all, never "any".
        assert!(owners_of_uri(&offers, "file:///etc/passwd").is_empty());
        assert!(owners_of_uri(&offers, "secret://x").is_empty());
    }

    #[test]
    fn templates_match_what_their_operators_expand_to() {
        let cases = [
            ("demo://notes/{id}", "demo://notes/7", true),
            ("demo://notes/{id}", "demo://notes/", true),
            ("demo://notes/{id}", "demo://other/7", false),
            ("demo://notes/{id}", "demo://notes/7?x=1", false),
            ("file:///{+path}", "file:///home/me/a.txt", true),
            ("demo://x{/a,b}", "demo://x/1/2", true),
            ("demo://find{?q,page}", "demo://find?q=a&page=2", true),
            ("demo://find{?q}", "demo://findings", false),
            ("demo://a.b{.ext}", "demo://a.b.json", true),
            ("demo://{unclosed", "demo://x", false),
        ];
        for (template, uri, matches) in cases {
            assert_eq!(
                matches_template(template, uri),
                matches,
                "{template} vs {uri}"
            );
        }
    }

    #[test]
    fn names_lead_back_to_their_server() {
        let prompts = Offer {
            prompts: vec![serde_json::from_value(json!({"name": "greet me"})).unwrap()],
            ..Offer::default()
        };
        let offers = vec![("my server".to_owned(), prompts)];
        let shown = id("my server", "greet me");
        let found = find(&Naming::prefixed(), &offers, &shown, |o| {
            o.prompts.iter().map(|p| p.name.as_str()).collect()
        });
        assert_eq!(
            found,
            Some(Named {
                server: "my server".into(),
                name: "greet me".into()
            })
        );
        assert_eq!(
            find(&Naming::prefixed(), &offers, "my_server__greet_me", |o| o
                .prompts
                .iter()
                .map(|p| p.name.as_str())
                .collect()),
            None
        );
    }

    #[test]
    fn a_bare_servers_items_go_by_their_own_names_and_the_others_keep_theirs() {
        let offer = Offer {
            tools: vec![
                serde_json::from_value(json!({"name": "ask", "inputSchema": {"type": "object"}}))
                    .unwrap(),
            ],
            ..Offer::default()
        };
        let offers = vec![
            ("peer".to_owned(), offer.clone()),
            ("demo".to_owned(), offer),
        ];
        let naming = Naming::bare("peer");
        assert_eq!(naming.shown("peer", "ask"), "ask");
        assert_eq!(naming.shown("demo", "ask"), "demo__ask");
        assert_eq!(naming.tool_id("ask", || offers.clone()), "peer__ask");
        assert_eq!(naming.tool_id("demo__ask", || offers.clone()), "demo__ask");
        assert_eq!(Naming::prefixed().tool_id("ask", || offers.clone()), "ask");
    }
}
