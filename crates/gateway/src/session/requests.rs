//! Which request of an agent's goes where: the session as the engine's typed server
//! handler. Each request is admitted first ([`super::era`]); those answered at once (the
//! lists, the log level) are answered in the order they came, and calls and reads run on
//! their own, in the era their `_meta` says, until the agent cancels them.

use serde_json::Value;
use switchboard_mcp::jsonrpc::{ErrorObject, RequestId};
use switchboard_mcp::server::handler::{
    ClientNotification, Finish, Reply, Rounds, ServerHandler, answered,
};
use switchboard_mcp::types::*;

use super::Session;
use super::era::Era;

/// Which request goes where; each is answered in its family's module.
impl ServerHandler for Session {
    fn admit(&self, method: &str, params: Option<&Value>) -> Result<Finish, ErrorObject> {
        self.admit_request(method, params)
    }

    fn initialize(&self, params: InitializeRequestParams) -> Reply<InitializeResult> {
        answered(Ok(self.open(params)))
    }

    fn discover(&self, _: RequestParams) -> Reply<DiscoverResult> {
        answered(Ok(self.discovery()))
    }

    fn listen(
        &self,
        id: RequestId,
        params: SubscriptionsListenRequestParams,
    ) -> Reply<SubscriptionsListenResult> {
        let session = self.clone();
        Box::pin(async move { session.listen_for(id, params.notifications).await })
    }

    fn set_level(&self, params: SetLevelRequestParams) -> Reply<EmptyResult> {
        self.state().log_level = Some(params.level);
        answered(Ok(EmptyResult::default()))
    }

    fn list_tools(&self, _: PaginatedRequestParams) -> Reply<ListToolsResult> {
        answered(self.tools_listed())
    }

    fn call_tool(&self, params: CallToolRequestParams) -> Reply<Rounds<CallToolResult>> {
        let meta = params.meta.clone();
        self.answer_in(meta.as_ref(), |session, era| async move {
            session.call_tool(params, era).await
        })
    }

    fn list_resources(&self, _: PaginatedRequestParams) -> Reply<ListResourcesResult> {
        answered(self.resources_listed())
    }

    fn list_resource_templates(
        &self,
        _: PaginatedRequestParams,
    ) -> Reply<ListResourceTemplatesResult> {
        answered(self.templates_listed())
    }

    fn read_resource(
        &self,
        params: ReadResourceRequestParams,
    ) -> Reply<Rounds<ReadResourceResult>> {
        let meta = params.meta.clone();
        self.answer_in(meta.as_ref(), |session, era| async move {
            session.read_resource(params, &era).await
        })
    }

    fn subscribe(&self, params: SubscribeRequestParams) -> Reply<EmptyResult> {
        let session = self.clone();
        Box::pin(async move { session.subscribe_to(&params.uri).await })
    }

    fn unsubscribe(&self, params: UnsubscribeRequestParams) -> Reply<EmptyResult> {
        let session = self.clone();
        Box::pin(async move { session.unsubscribe_from(&params.uri).await })
    }

    fn list_prompts(&self, _: PaginatedRequestParams) -> Reply<ListPromptsResult> {
        answered(self.prompts_listed())
    }

    fn get_prompt(&self, params: GetPromptRequestParams) -> Reply<Rounds<GetPromptResult>> {
        let meta = params.meta.clone();
        self.answer_in(meta.as_ref(), |session, era| async move {
            session.get_prompt(params, &era).await
        })
    }

    fn complete(&self, params: CompleteRequestParams) -> Reply<Rounds<CompleteResult>> {
        let meta = params.meta.clone();
        self.answer_in(meta.as_ref(), |session, era| async move {
            session.complete(params, &era).await
        })
    }

    /// The agent's tasks (`tasks/*`); nothing else.
    fn custom(&self, method: String, params: Option<Value>) -> Reply<Value> {
        if !method.starts_with("tasks/") {
            return answered(Err(ErrorObject::method_not_found(&method)));
        }
        match self.task_request(&method, params.as_ref()) {
            Ok(reply) => reply,
            Err(refused) => answered(Err(refused)),
        }
    }

    fn notification(&self, notification: ClientNotification) {
        self.notified(notification);
    }

    /// The schema of a tool as the agent is shown it (passed on unchanged): its
    /// `x-mcp-header` marks are what the HTTP transport checks a call's headers against.
    fn tool_input_schema(&self, name: &str) -> Option<Value> {
        let schema = self
            .inner
            .agents
            .tool_schema(self.agent(), &self.tool_id(name))?;
        Some(Value::Object(schema))
    }
}

impl Session {
    /// Answers a request that runs on its own (a call or a read), in the era its `_meta`
    /// says it is of.
    fn answer_in<T: Send + 'static, F>(
        &self,
        meta: Option<&Meta>,
        answer: impl FnOnce(Session, Era) -> F,
    ) -> Reply<T>
    where
        F: Future<Output = Result<T, ErrorObject>> + Send + 'static,
    {
        match Era::of(meta) {
            Ok(era) => Box::pin(answer(self.clone(), era)),
            Err(refused) => answered(Err(refused)),
        }
    }
}
