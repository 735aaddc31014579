//! The server role's typed handler: one method per request a client may send, taking its
//! params as [`crate::types`] reads them and answering with its typed result, so that a
//! server names what it offers instead of matching method strings. Each method has a
//! default (`ping` answers, the rest are "method not found"): a server implements only
//! what it offers. [`Dispatch`] puts a handler on a [`crate::connection::Connection`].
//!
//! The methods are called in the order the requests arrive, and what a method does before
//! it returns its future is done in that order too; a server whose answers change its
//! state (a log level, a subscription) does that work at once and returns [`answered`], and
//! one that takes long (a tool call that asks the client back) returns a future, which is
//! dropped if the client cancels the request.
//!
//! A server may also look at each request as it came before its method is called
//! ([`ServerHandler::admit`]): to refuse it, or to finish its result as JSON (what a
//! revision asks of every result, say); and answer a request the 2026-07-28 revision lets
//! it answer in rounds with the questions the client must answer first ([`Rounds`]).

mod dispatch;
mod notification;
mod rounds;

pub use dispatch::{Dispatch, Finish};
pub use notification::ClientNotification;
pub use rounds::{CreatedTask, Rounds};

use serde_json::Value;

use crate::jsonrpc::{ErrorObject, RequestId};
use crate::transport::BoxFuture;
use crate::types::*;

/// The answer to one request: a future, owning what it needs, of the typed result or the
/// error the client is sent.
pub type Reply<T> = BoxFuture<'static, Result<T, ErrorObject>>;

/// A reply that is known already.
pub fn answered<T: Send + 'static>(outcome: Result<T, ErrorObject>) -> Reply<T> {
    Box::pin(std::future::ready(outcome))
}

/// The reply of a method the server does not offer.
fn not_offered<T: Send + 'static>(method: &str) -> Reply<T> {
    answered(Err(ErrorObject::method_not_found(method)))
}

/// Answers a client's requests and receives its notifications, typed. Progress and
/// cancellation are the connection's: a cancelled request's future is dropped.
pub trait ServerHandler: Send + Sync + 'static {
    /// Looks at each request as it came, before its method is called (in the order the
    /// requests arrive): an error refuses it, and its method is not called; otherwise the
    /// [`Finish`] returned is applied to the result the method answers, as JSON. By default
    /// every request goes on and its result is sent as answered.
    fn admit(&self, method: &str, params: Option<&Value>) -> Result<Finish, ErrorObject> {
        let _ = (method, params);
        Ok(Finish::as_answered())
    }

    /// `initialize`: opens a session of the stateful revisions.
    fn initialize(&self, params: InitializeRequestParams) -> Reply<InitializeResult> {
        let _ = params;
        not_offered(method::INITIALIZE)
    }

    /// `ping`: answered empty. (The connection answers a ping before any handler sees
    /// it; this is for a server that is called otherwise.)
    fn ping(&self, params: RequestParams) -> Reply<EmptyResult> {
        let _ = params;
        answered(Ok(EmptyResult::default()))
    }

    /// `server/discover` (2026-07-28): the revisions and capabilities the server offers.
    fn discover(&self, params: RequestParams) -> Reply<DiscoverResult> {
        let _ = params;
        not_offered(method::SERVER_DISCOVER)
    }

    /// `subscriptions/listen` (2026-07-28): a stream of change notifications, each tagged
    /// with `id`, the request's, which also names the stream in the result that ends it.
    fn listen(
        &self,
        id: RequestId,
        params: SubscriptionsListenRequestParams,
    ) -> Reply<SubscriptionsListenResult> {
        let _ = (id, params);
        not_offered(method::SUBSCRIPTIONS_LISTEN)
    }

    /// `tools/list`.
    fn list_tools(&self, params: PaginatedRequestParams) -> Reply<ListToolsResult> {
        let _ = params;
        not_offered(method::TOOLS_LIST)
    }

    /// `tools/call`: its result, or (2026-07-28) the questions the client must answer first.
    fn call_tool(&self, params: CallToolRequestParams) -> Reply<Rounds<CallToolResult>> {
        let _ = params;
        not_offered(method::TOOLS_CALL)
    }

    /// `resources/list`.
    fn list_resources(&self, params: PaginatedRequestParams) -> Reply<ListResourcesResult> {
        let _ = params;
        not_offered(method::RESOURCES_LIST)
    }

    /// `resources/templates/list`.
    fn list_resource_templates(
        &self,
        params: PaginatedRequestParams,
    ) -> Reply<ListResourceTemplatesResult> {
        let _ = params;
        not_offered(method::RESOURCES_TEMPLATES_LIST)
    }

    /// `resources/read`: its result, or (2026-07-28) the questions the client must answer
    /// first.
    fn read_resource(
        &self,
        params: ReadResourceRequestParams,
    ) -> Reply<Rounds<ReadResourceResult>> {
        let _ = params;
        not_offered(method::RESOURCES_READ)
    }

    /// `resources/subscribe`.
    fn subscribe(&self, params: SubscribeRequestParams) -> Reply<EmptyResult> {
        let _ = params;
        not_offered(method::RESOURCES_SUBSCRIBE)
    }

    /// `resources/unsubscribe`.
    fn unsubscribe(&self, params: UnsubscribeRequestParams) -> Reply<EmptyResult> {
        let _ = params;
        not_offered(method::RESOURCES_UNSUBSCRIBE)
    }

    /// `prompts/list`.
    fn list_prompts(&self, params: PaginatedRequestParams) -> Reply<ListPromptsResult> {
        let _ = params;
        not_offered(method::PROMPTS_LIST)
    }

    /// `prompts/get`: its result, or (2026-07-28) the questions the client must answer first.
    fn get_prompt(&self, params: GetPromptRequestParams) -> Reply<Rounds<GetPromptResult>> {
        let _ = params;
        not_offered(method::PROMPTS_GET)
    }

    /// `completion/complete`: its result, or the questions the client must answer first (a
    /// server that completes by asking another may be asked back, as for a read).
    fn complete(&self, params: CompleteRequestParams) -> Reply<Rounds<CompleteResult>> {
        let _ = params;
        not_offered(method::COMPLETION_COMPLETE)
    }

    /// `logging/setLevel`.
    fn set_level(&self, params: SetLevelRequestParams) -> Reply<EmptyResult> {
        let _ = params;
        not_offered(method::LOGGING_SET_LEVEL)
    }

    /// Any other request (an extension's, or one of the protocol this trait does not
    /// type), as it came.
    fn custom(&self, method: String, params: Option<Value>) -> Reply<Value> {
        let _ = params;
        not_offered(&method)
    }

    /// Every notification from the client but progress and cancellation.
    fn notification(&self, notification: ClientNotification) {
        let _ = notification;
    }

    /// The input schema of the tool `name` as this server lists it, for the Streamable HTTP
    /// server's check of a 2026-07-28 call's headers (see
    /// [`crate::connection::IncomingHandler::tool_input_schema`]).
    fn tool_input_schema(&self, name: &str) -> Option<Value> {
        let _ = name;
        None
    }
}
