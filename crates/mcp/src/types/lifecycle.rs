//! The `initialize` handshake and the capabilities each side declares in it.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;

use super::common::{CapabilityObject, Implementation, Meta};
use super::elicitation::ElicitRequestParams;

/// Params of `initialize`, sent by the client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeRequestParams {
    /// The newest revision the client speaks, e.g. `"2025-11-25"`.
    pub protocol_version: String,
    pub capabilities: ClientCapabilities,
    pub client_info: Implementation,
    #[serde(
        rename = "_meta",
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient"
    )]
    pub meta: Option<Meta>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The result of `initialize`, sent by the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResult {
    /// The revision the session will use; the client must speak it or disconnect.
    pub protocol_version: String,
    pub capabilities: ServerCapabilities,
    pub server_info: Implementation,
    /// How to use this server, for the model's system prompt.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub instructions: Option<String>,
    #[serde(
        rename = "_meta",
        skip_serializing_if = "Option::is_none",
        default,
        with = "lenient"
    )]
    pub meta: Option<Meta>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What a client offers: roots, sampling, elicitation.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ClientCapabilities {
    /// Non-standard capabilities, by name.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub experimental: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub roots: Option<RootsCapability>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub sampling: Option<SamplingCapability>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub elicitation: Option<ElicitationCapability>,
    /// Task-augmented requests (2025-11-25, experimental), kept as received.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub tasks: Option<CapabilityObject>,
    /// The extensions the client takes part in, by name (MCP Apps' `io.modelcontextprotocol/ui`),
    /// each with its settings.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub extensions: Option<Map<String, Value>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ClientCapabilities {
    /// Every capability this crate can answer: roots (with change notifications),
    /// sampling (without tools: see [`Self::with_sampling_tools`]), and elicitation in form
    /// and URL modes.
    pub fn all() -> Self {
        Self {
            roots: Some(RootsCapability {
                list_changed: Some(true),
                extra: Map::new(),
            }),
            sampling: Some(SamplingCapability::default()),
            elicitation: Some(ElicitationCapability {
                form: Some(CapabilityObject::new()),
                url: Some(CapabilityObject::new()),
                extra: Map::new(),
            }),
            ..Self::default()
        }
    }

    /// Also declares `sampling.tools` (2025-11-25): sampling requests may then offer tools
    /// to the model. Only for a client whose sampling handler can answer with tool uses;
    /// without it, such requests are refused.
    pub fn with_sampling_tools(mut self) -> Self {
        self.sampling
            .get_or_insert_with(SamplingCapability::default)
            .tools = Some(CapabilityObject::new());
        self
    }

    /// Also declares (2025-11-25) that the client runs its sampling and elicitation requests,
    /// as far as it answers them, as tasks when its server asks (see `client::served_tasks`),
    /// and (2026-07-28) that it takes the tasks extension: a server may answer its tool calls
    /// with a task, which it follows to its end (see `client::tasks`).
    pub fn with_tasks(mut self) -> Self {
        self.extensions.get_or_insert_with(Map::new).insert(
            super::tasks::TASKS_EXTENSION.to_owned(),
            serde_json::json!({}),
        );
        let mut requests = Map::new();
        if self.sampling.is_some() {
            requests.insert("sampling".into(), serde_json::json!({"createMessage": {}}));
        }
        if self.elicitation.is_some() {
            requests.insert("elicitation".into(), serde_json::json!({"create": {}}));
        }
        let mut tasks = CapabilityObject::new();
        tasks.insert("list".into(), serde_json::json!({}));
        tasks.insert("cancel".into(), serde_json::json!({}));
        tasks.insert("requests".into(), Value::Object(requests));
        self.tasks = Some(tasks);
        self
    }

    /// Also declares that the client loads its servers' skills (SEP-2640, see
    /// `client::skills`).
    pub fn with_skills(mut self) -> Self {
        self.extensions
            .get_or_insert_with(Map::new)
            .insert(super::skills::EXTENSION.to_owned(), serde_json::json!({}));
        self
    }

    /// Also declares that the client renders MCP Apps' views (see [`super::apps`]).
    pub fn with_apps(mut self) -> Self {
        self.extensions.get_or_insert_with(Map::new).insert(
            super::apps::EXTENSION.to_owned(),
            super::apps::client_capability(),
        );
        self
    }

    /// Whether the client renders MCP Apps' HTML views.
    pub fn renders_apps(&self) -> bool {
        super::apps::renders_html(self.extensions.as_ref())
    }

    pub fn supports_roots(&self) -> bool {
        self.roots.is_some()
    }

    pub fn supports_sampling(&self) -> bool {
        self.sampling.is_some()
    }

    /// Whether sampling requests may offer tools to the model.
    pub fn supports_sampling_tools(&self) -> bool {
        self.sampling.as_ref().is_some_and(|s| s.tools.is_some())
    }

    /// Form mode: declared as `form`, or implied by an empty `elicitation: {}` (2025-06-18).
    pub fn supports_form_elicitation(&self) -> bool {
        self.elicitation
            .as_ref()
            .is_some_and(|e| e.form.is_some() || e.url.is_none())
    }

    pub fn supports_url_elicitation(&self) -> bool {
        self.elicitation.as_ref().is_some_and(|e| e.url.is_some())
    }

    /// Whether this elicitation request is in a mode these capabilities declare.
    pub fn allows_elicitation(&self, params: &ElicitRequestParams) -> bool {
        match params {
            ElicitRequestParams::Form(_) => self.supports_form_elicitation(),
            ElicitRequestParams::Url(_) => self.supports_url_elicitation(),
        }
    }
}

/// A capability whose only option is whether its list-changed notifications are sent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListChangedCapability {
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub list_changed: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The client's `roots` capability.
pub type RootsCapability = ListChangedCapability;

/// The server's `prompts` capability.
pub type PromptsCapability = ListChangedCapability;

/// The server's `tools` capability.
pub type ToolsCapability = ListChangedCapability;

/// The client's `sampling` capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SamplingCapability {
    /// Support for `includeContext` other than `none` (soft-deprecated).
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub context: Option<CapabilityObject>,
    /// Support for `tools` and `toolChoice` in sampling requests.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub tools: Option<CapabilityObject>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The client's `elicitation` capability; empty means form mode only.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ElicitationCapability {
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub form: Option<CapabilityObject>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub url: Option<CapabilityObject>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// What a server offers: tools, resources, prompts, logging, completions.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerCapabilities {
    /// Non-standard capabilities, by name.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub experimental: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub logging: Option<CapabilityObject>,
    /// Argument completion (2025-03-26 and later).
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub completions: Option<CapabilityObject>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub prompts: Option<PromptsCapability>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub resources: Option<ResourcesCapability>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub tools: Option<ToolsCapability>,
    /// Task-augmented requests (2025-11-25, experimental), kept as received.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub tasks: Option<CapabilityObject>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ServerCapabilities {
    pub fn supports_tools(&self) -> bool {
        self.tools.is_some()
    }

    pub fn supports_resources(&self) -> bool {
        self.resources.is_some()
    }

    pub fn supports_resource_subscriptions(&self) -> bool {
        self.resources
            .as_ref()
            .is_some_and(|r| r.subscribe == Some(true))
    }

    pub fn supports_prompts(&self) -> bool {
        self.prompts.is_some()
    }

    pub fn supports_logging(&self) -> bool {
        self.logging.is_some()
    }

    pub fn supports_completions(&self) -> bool {
        self.completions.is_some()
    }

    pub fn notifies_tools_changed(&self) -> bool {
        self.tools
            .as_ref()
            .is_some_and(|t| t.list_changed == Some(true))
    }

    pub fn notifies_resources_changed(&self) -> bool {
        self.resources
            .as_ref()
            .is_some_and(|r| r.list_changed == Some(true))
    }

    pub fn notifies_prompts_changed(&self) -> bool {
        self.prompts
            .as_ref()
            .is_some_and(|p| p.list_changed == Some(true))
    }
}

/// The server's `resources` capability.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourcesCapability {
    /// Whether `resources/subscribe` is supported.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub subscribe: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub list_changed: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn client(caps: Value) -> ClientCapabilities {
        serde_json::from_value(caps).unwrap()
    }

    #[test]
    fn empty_elicitation_means_form_only() {
        let caps = client(json!({"elicitation": {}}));
        assert!(caps.supports_form_elicitation());
        assert!(!caps.supports_url_elicitation());
        let caps = client(json!({"elicitation": {"url": {}}}));
        assert!(!caps.supports_form_elicitation());
        assert!(caps.supports_url_elicitation());
        let caps = client(json!({}));
        assert!(!caps.supports_form_elicitation());
    }

    #[test]
    fn all_declares_every_answerable_capability() {
        assert_eq!(
            serde_json::to_value(ClientCapabilities::all()).unwrap(),
            json!({
                "roots": {"listChanged": true},
                "sampling": {},
                "elicitation": {"form": {}, "url": {}}
            })
        );
    }

    #[test]
    fn sampling_tools_are_declared_only_when_asked_for() {
        let caps = ClientCapabilities::all().with_sampling_tools();
        assert!(caps.supports_sampling_tools());
        assert_eq!(
            serde_json::to_value(&caps).unwrap()["sampling"],
            json!({"tools": {}})
        );
        assert!(!ClientCapabilities::all().supports_sampling_tools());
        let only_tools = ClientCapabilities::default().with_sampling_tools();
        assert!(only_tools.supports_sampling());
    }

    #[test]
    fn server_helpers_read_the_flags() {
        let caps: ServerCapabilities = serde_json::from_value(json!({
            "tools": {"listChanged": true}, "resources": {"subscribe": false}, "logging": {}
        }))
        .unwrap();
        assert!(caps.supports_tools() && caps.notifies_tools_changed());
        assert!(caps.supports_resources() && !caps.supports_resource_subscriptions());
        assert!(caps.supports_logging() && !caps.supports_prompts());
        assert!(!caps.supports_completions());
    }
}
