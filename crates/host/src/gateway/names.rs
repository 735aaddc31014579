//! How the agent names what the servers offer, and how those names lead back: tools and
//! prompts as `server__name` (the catalog's ids: collision-free, at most 64 characters,
//! stable across restarts); resources by their own URIs, which tool results carry too,
//! mapped back to the server that offers them.

use crate::catalog::{Offer, tool_id};

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

/// The item the agent named `id`, among each server's items as `names` lists them.
pub fn find(
    offers: &[(String, Offer)],
    id_seen: &str,
    names: impl Fn(&Offer) -> Vec<&str>,
) -> Option<Named> {
    offers.iter().find_map(|(server, offer)| {
        names(offer)
            .into_iter()
            .find(|name| id(server, name) == id_seen)
            .map(|name| Named {
                server: server.clone(),
                name: name.to_owned(),
            })
    })
}

/// The servers that may serve `uri`, likeliest first: those that list it, else those
/// with a template it may come from (the longest fixed start first), else every server
/// that offers resources at all.
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
                .map(|t| fixed_start(&t.uri_template))
                .filter(|start| !start.is_empty() && uri.starts_with(start))
                .map(str::len)
                .max()
                .map(|len| (len, server.clone()))
        })
        .collect();
    templated.sort_by_key(|(len, _)| std::cmp::Reverse(*len));
    let mut owners: Vec<String> = templated.into_iter().map(|(_, server)| server).collect();
    for (server, offer) in offers {
        let offers_resources = !offer.resources.is_empty() || !offer.templates.is_empty();
        if offers_resources && !owners.contains(server) {
            owners.push(server.clone());
        }
    }
    owners
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
    fn a_uri_leads_to_the_server_listing_it_then_to_templates_then_to_any() {
        let offers = vec![
            ("a".to_owned(), offer(&["demo://notes/1"], &["demo://{x}"])),
            ("b".to_owned(), offer(&[], &["demo://notes/{id}"])),
            ("c".to_owned(), offer(&["other://x"], &[])),
            ("d".to_owned(), Offer::default()),
        ];
        assert_eq!(owners_of_uri(&offers, "demo://notes/1"), ["a"]);
        assert_eq!(owners_of_uri(&offers, "demo://notes/2"), ["b", "a", "c"]);
        assert_eq!(owners_of_uri(&offers, "file:///etc"), ["a", "b", "c"]);
    }

    #[test]
    fn names_lead_back_to_their_server() {
        let prompts = Offer {
            prompts: vec![serde_json::from_value(json!({"name": "greet me"})).unwrap()],
            ..Offer::default()
        };
        let offers = vec![("my server".to_owned(), prompts)];
        let shown = id("my server", "greet me");
        let found = find(&offers, &shown, |o| {
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
            find(&offers, "my_server__greet_me", |o| o
                .prompts
                .iter()
                .map(|p| p.name.as_str())
                .collect()),
            None
        );
    }
}
