//! The resources an agent sees, by their own URIs (`resources/list`,
//! `resources/templates/list`, each marked with its server), its reads (`resources/read`:
//! at the server that lists the URI, else those whose templates match it, through the
//! gate), and its subscriptions to their updates ([`crate::subscriptions`]).

use serde_json::{Map, json};
use switchboard_mcp::jsonrpc::{ErrorObject, code};
use switchboard_mcp::server::handler::Rounds;
use switchboard_mcp::types::*;

use super::calls::{given, read_told};
use super::era::Era;
use super::{Served, Session};
use crate::names;
use switchboard_core::reads::Read;

impl Session {
    pub(super) fn resources_listed(&self) -> Result<ListResourcesResult, ErrorObject> {
        let resources = self.list(|server, offer| {
            let of = offer.resources.iter().cloned();
            of.map(|r| r.served_by(server)).collect()
        })?;
        Ok(ListResourcesResult {
            resources,
            next_cursor: None,
            meta: None,
            skipped: Vec::new(),
            extra: Map::new(),
        })
    }

    pub(super) fn templates_listed(&self) -> Result<ListResourceTemplatesResult, ErrorObject> {
        let resource_templates = self.list(|server, offer| {
            let of = offer.templates.iter().cloned();
            of.map(|t| t.served_by(server)).collect()
        })?;
        Ok(ListResourceTemplatesResult {
            resource_templates,
            next_cursor: None,
            meta: None,
            skipped: Vec::new(),
            extra: Map::new(),
        })
    }

    /// Reads a resource from the server that offers it: the one listing this URI, else
    /// those whose templates match it (the next only when one has no such resource), each
    /// read through the gate; the result names the server that answered.
    pub(super) async fn read_resource(
        &self,
        params: ReadResourceRequestParams,
        era: &Era,
    ) -> Result<Rounds<ReadResourceResult>, ErrorObject> {
        let what = format!("{} {}", method::RESOURCES_READ, params.uri);
        let mut given = given(&params.extra, era)?;
        let mut last = None;
        if let Some(outcome) = self
            .resume(&what, &params.extra, era, None, &mut given)
            .await?
        {
            match outcome.told(read_told) {
                Err(error) if error.code == code::RESOURCE_NOT_FOUND => last = Some(error),
                told => return told,
            }
        } else {
            let offers = self.offers()?;
            for server in names::owners_of_uri(&offers, &params.uri) {
                let read = Read::Resource {
                    uri: params.uri.clone(),
                };
                let uri = params.uri.clone();
                let outcome = self
                    .read(
                        &server,
                        read,
                        (&what, era, given.clone()),
                        |client| async move {
                            client.read_resource(&uri, client.request_options()).await
                        },
                    )
                    .await?;
                match outcome.told(read_told) {
                    Err(error) if error.code == code::RESOURCE_NOT_FOUND => last = Some(error),
                    told => return told,
                }
            }
        }
        let error = last.unwrap_or_else(|| {
            ErrorObject::new(
                code::RESOURCE_NOT_FOUND,
                format!(
                    "no server {} may use lists {} or has a template for it",
                    self.agent(),
                    params.uri
                ),
            )
        });
        match era {
            // The stateless revision's code for it (whatever the server's revision), with
            // the URI.
            Era::Stateless(_) if error.code == code::RESOURCE_NOT_FOUND => Err(ErrorObject {
                code: code::INVALID_PARAMS,
                message: error.message,
                data: Some(Box::new(json!({"uri": params.uri}))),
            }),
            _ => Err(error),
        }
    }

    /// Follows a resource's updates at the server that offers it, through the gate.
    pub(super) async fn subscribe_to(&self, uri: &str) -> Result<EmptyResult, ErrorObject> {
        let offers = self.offers()?;
        let subscriptions = &self.inner.subscriptions;
        subscriptions
            .subscribe(self.agent(), &offers, uri, self.token())
            .await?;
        Ok(EmptyResult::default())
    }

    pub(super) async fn unsubscribe_from(&self, uri: &str) -> Result<EmptyResult, ErrorObject> {
        self.inner.subscriptions.unsubscribe(uri).await?;
        Ok(EmptyResult::default())
    }
}
