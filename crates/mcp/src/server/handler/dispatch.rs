//! The connection's view of a [`ServerHandler`]: each request's method picks the handler's
//! method, its params are read into their type (a request that does not fit is answered
//! -32602, saying why) and its result is encoded; a method the handler does not type goes
//! to [`ServerHandler::custom`] as it came. Before any of that, the handler admits the
//! request ([`ServerHandler::admit`]), and what it says finishes the encoded result.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{ClientNotification, Reply, ServerHandler, answered};
use crate::connection::IncomingHandler;
use crate::jsonrpc::{ErrorObject, RequestId, code, encode_result, read_params};
use crate::transport::BoxFuture;
use crate::types::method;

/// A [`ServerHandler`] as the connection calls it: start a connection with
/// `Arc::new(Dispatch::new(handler))`.
pub struct Dispatch<H> {
    handler: H,
}

impl<H: ServerHandler> Dispatch<H> {
    pub fn new(handler: H) -> Self {
        Self { handler }
    }

    pub fn handler(&self) -> &H {
        &self.handler
    }

    /// Answers one request; `id` is `None` only when the caller knows none, and then a
    /// `subscriptions/listen`, which is named by its id, cannot be answered.
    fn answer(
        &self,
        id: Option<&RequestId>,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        let handler = &self.handler;
        let finish = match handler.admit(&method, params.as_ref()) {
            Ok(finish) => finish,
            Err(refused) => return answered(Err(refused)),
        };
        let reply = match method.as_str() {
            method::INITIALIZE => typed(params, |p| handler.initialize(p)),
            method::PING => typed(params, |p| handler.ping(p)),
            method::SERVER_DISCOVER => typed(params, |p| handler.discover(p)),
            method::SUBSCRIPTIONS_LISTEN => match id {
                Some(id) => typed(params, |p| handler.listen(id.clone(), p)),
                None => answered(Err(ErrorObject::new(
                    code::INTERNAL_ERROR,
                    "subscriptions/listen needs the id of its request, and none was given",
                ))),
            },
            method::TOOLS_LIST => typed(params, |p| handler.list_tools(p)),
            method::TOOLS_CALL => typed(params, |p| handler.call_tool(p)),
            method::RESOURCES_LIST => typed(params, |p| handler.list_resources(p)),
            method::RESOURCES_TEMPLATES_LIST => {
                typed(params, |p| handler.list_resource_templates(p))
            }
            method::RESOURCES_READ => typed(params, |p| handler.read_resource(p)),
            method::RESOURCES_SUBSCRIBE => typed(params, |p| handler.subscribe(p)),
            method::RESOURCES_UNSUBSCRIBE => typed(params, |p| handler.unsubscribe(p)),
            method::PROMPTS_LIST => typed(params, |p| handler.list_prompts(p)),
            method::PROMPTS_GET => typed(params, |p| handler.get_prompt(p)),
            method::COMPLETION_COMPLETE => typed(params, |p| handler.complete(p)),
            method::LOGGING_SET_LEVEL => typed(params, |p| handler.set_level(p)),
            _ => handler.custom(method, params),
        };
        match finish.0 {
            Some(finish) => Box::pin(async move { Ok(finish(reply.await?)) }),
            None => reply,
        }
    }
}

/// What finishes the result of one request, as JSON, once its method answered (see
/// [`ServerHandler::admit`]); an error is sent as it is.
#[derive(Default)]
pub struct Finish(Option<Box<dyn FnOnce(Value) -> Value + Send>>);

impl Finish {
    /// The result goes as the method answered it.
    pub fn as_answered() -> Self {
        Self(None)
    }

    /// The result goes as `finish` makes it.
    pub fn with(finish: impl FnOnce(Value) -> Value + Send + 'static) -> Self {
        Self(Some(Box::new(finish)))
    }
}

/// Reads the params, calls the handler's method with them at once (so that requests take
/// effect in the order they came), and encodes the result it answers.
fn typed<P: DeserializeOwned, R: Serialize + Send + 'static>(
    params: Option<Value>,
    method: impl FnOnce(P) -> Reply<R>,
) -> BoxFuture<'static, Result<Value, ErrorObject>> {
    match read_params(params) {
        Ok(params) => {
            let reply = method(params);
            Box::pin(async move { encode_result(reply.await?) })
        }
        Err(invalid) => answered(Err(invalid)),
    }
}

impl<H: ServerHandler> IncomingHandler for Dispatch<H> {
    fn request(
        &self,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        self.answer(None, method, params)
    }

    fn request_with_id(
        &self,
        id: &RequestId,
        method: String,
        params: Option<Value>,
    ) -> BoxFuture<'static, Result<Value, ErrorObject>> {
        self.answer(Some(id), method, params)
    }

    fn notification(&self, method: String, params: Option<Value>) {
        self.handler
            .notification(ClientNotification::parse(method, params));
    }

    fn tool_input_schema(&self, name: &str) -> Option<Value> {
        self.handler.tool_input_schema(name)
    }
}
