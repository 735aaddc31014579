//! The MCP Apps extension (`io.modelcontextprotocol/ui`, stable revision 2026-01-26) on the
//! MCP side: a server's interactive view for a tool is an HTML document it serves as a
//! `ui://` resource of type [`HTML_MIME`]. These are what a client declares, what a tool
//! with a view says of it (`_meta.ui`, or the older `_meta["ui/resourceUri"]`), and what the
//! view's resource asks of the host (its `_meta.ui`: the domains it may reach, the
//! permissions it wants, a dedicated origin, a border). The host's side of the view's
//! messages (`ui/*` over `postMessage`) is not MCP on the wire and is not here.
//!
//! Every member is read leniently, as the rest of the wire types are: a value of the wrong
//! type is taken as not given, never as a failure of the tool or the resource it came with.

use serde_json::{Map, Value, json};

use super::{Meta, Tool};

/// The extension's name in `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The type of a view's resource.
pub const HTML_MIME: &str = "text/html;profile=mcp-app";
/// Where servers written before `_meta.ui` put a tool's view.
pub const LEGACY_RESOURCE_URI: &str = "ui/resourceUri";

/// What a client that renders views declares, under [`EXTENSION`].
pub fn client_capability() -> Value {
    json!({ "mimeTypes": [HTML_MIME] })
}

/// Who may call a tool that has a view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visibility {
    /// The model (and the agents the host serves).
    Model,
    /// The tool's own view, from this server only.
    App,
}

/// What a tool says of its view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolUi {
    /// The `ui://` resource of its view, if it has one.
    pub resource_uri: Option<String>,
    /// Who may call it; both when the tool says nothing (or nothing this crate knows).
    pub visibility: Vec<Visibility>,
}

impl ToolUi {
    /// What `tool` says of its view; `None` when it says nothing of one.
    pub fn of(tool: &Tool) -> Option<Self> {
        let meta = tool.meta.as_ref()?;
        let ui = meta.get("ui").and_then(Value::as_object);
        let text = |value: Option<&Value>| value.and_then(Value::as_str).map(str::to_owned);
        let resource_uri = text(ui.and_then(|ui| ui.get("resourceUri")))
            .or_else(|| text(meta.get(LEGACY_RESOURCE_URI)));
        if ui.is_none() && resource_uri.is_none() {
            return None;
        }
        let mut visibility: Vec<Visibility> = ui
            .and_then(|ui| ui.get("visibility"))
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .filter_map(|v| match v.as_str() {
                Some("model") => Some(Visibility::Model),
                Some("app") => Some(Visibility::App),
                _ => None,
            })
            .collect();
        if visibility.is_empty() {
            visibility = vec![Visibility::Model, Visibility::App];
        }
        Some(Self {
            resource_uri,
            visibility,
        })
    }

    /// Whether a model (or an agent) may be offered the tool.
    pub fn for_model(&self) -> bool {
        self.visibility.contains(&Visibility::Model)
    }

    /// Whether the tool's view may call it.
    pub fn for_app(&self) -> bool {
        self.visibility.contains(&Visibility::App)
    }
}

/// Whether a model (or an agent) may be offered `tool`: any tool but one only its view
/// may call.
pub fn offered_to_models(tool: &Tool) -> bool {
    ToolUi::of(tool).is_none_or(|ui| ui.for_model())
}

/// The origins a view may reach, each list empty when none was declared (the secure
/// default: nothing beyond the view itself).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Csp {
    /// `connect-src`: fetch, XHR, WebSocket.
    pub connect_domains: Vec<String>,
    /// `img-src`, `script-src`, `style-src`, `font-src`, `media-src`.
    pub resource_domains: Vec<String>,
    /// `frame-src`: nested frames.
    pub frame_domains: Vec<String>,
    /// `base-uri`.
    pub base_uri_domains: Vec<String>,
}

/// The powers a view asks for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Permissions {
    pub camera: bool,
    pub microphone: bool,
    pub geolocation: bool,
    pub clipboard_write: bool,
}

/// What a view's resource asks of the host.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResourceUi {
    pub csp: Csp,
    pub permissions: Permissions,
    /// A dedicated origin the server asks for (its form is the host's to say).
    pub domain: Option<String>,
    /// Whether the view wants a visible border and background; `None`: the host decides.
    pub prefers_border: Option<bool>,
}

impl ResourceUi {
    /// What the `_meta` of a view's resource (its contents, else its listing) asks.
    pub fn of(meta: Option<&Meta>) -> Self {
        let Some(ui) = meta.and_then(|m| m.get("ui")).and_then(Value::as_object) else {
            return Self::default();
        };
        let object = |key: &str| ui.get(key).and_then(Value::as_object);
        let csp = object("csp");
        let domains = |key: &str| strings(csp.and_then(|c| c.get(key)));
        let permissions = object("permissions");
        let asks =
            |key: &str| permissions.is_some_and(|p| p.get(key).is_some_and(Value::is_object));
        Self {
            csp: Csp {
                connect_domains: domains("connectDomains"),
                resource_domains: domains("resourceDomains"),
                frame_domains: domains("frameDomains"),
                base_uri_domains: domains("baseUriDomains"),
            },
            permissions: Permissions {
                camera: asks("camera"),
                microphone: asks("microphone"),
                geolocation: asks("geolocation"),
                clipboard_write: asks("clipboardWrite"),
            },
            domain: ui.get("domain").and_then(Value::as_str).map(str::to_owned),
            prefers_border: ui.get("prefersBorder").and_then(Value::as_bool),
        }
    }
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// Whether `extensions` (a peer's `capabilities.extensions`) declares views of [`HTML_MIME`].
pub fn renders_html(extensions: Option<&Map<String, Value>>) -> bool {
    extensions
        .and_then(|e| e.get(EXTENSION))
        .and_then(|ui| ui.get("mimeTypes"))
        .and_then(Value::as_array)
        .is_some_and(|types| types.iter().any(|t| t == HTML_MIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(meta: Value) -> Tool {
        serde_json::from_value(json!({"name": "t", "inputSchema": {"type": "object"},
            "_meta": meta}))
        .unwrap()
    }

    #[test]
    fn a_tools_view_is_read_from_either_place_with_who_may_call_it() {
        let both = ToolUi::of(&tool(json!({"ui": {"resourceUri": "ui://a/view.html"}}))).unwrap();
        assert_eq!(both.resource_uri.as_deref(), Some("ui://a/view.html"));
        assert!(both.for_model() && both.for_app());
        let older = ToolUi::of(&tool(json!({"ui/resourceUri": "ui://b/view.html"}))).unwrap();
        assert_eq!(older.resource_uri.as_deref(), Some("ui://b/view.html"));
        let app_only = tool(json!({"ui": {"resourceUri": "ui://a", "visibility": ["app"]}}));
        assert!(!offered_to_models(&app_only));
        let model_only = ToolUi::of(&tool(json!({"ui": {"visibility": ["model", 3]}}))).unwrap();
        assert!(model_only.for_model() && !model_only.for_app());
        assert_eq!(ToolUi::of(&tool(json!({"other": 1}))), None);
        assert!(offered_to_models(&tool(json!({}))));
    }

    #[test]
    fn a_views_resource_says_what_it_may_reach_and_asks_for() {
        let meta = json!({"ui": {
            "csp": {"connectDomains": ["https://api.example.com"], "resourceDomains": "oops"},
            "permissions": {"camera": {}, "microphone": true},
            "domain": "view.example.com",
            "prefersBorder": false
        }});
        let ui = ResourceUi::of(meta.as_object());
        assert_eq!(ui.csp.connect_domains, ["https://api.example.com"]);
        assert!(
            ui.csp.resource_domains.is_empty(),
            "a wrong type is not given"
        );
        assert!(ui.permissions.camera && !ui.permissions.microphone);
        assert_eq!(ui.domain.as_deref(), Some("view.example.com"));
        assert_eq!(ui.prefers_border, Some(false));
        assert_eq!(ResourceUi::of(None), ResourceUi::default());
    }

    #[test]
    fn a_client_that_renders_views_says_so() {
        let declared = json!({ EXTENSION: client_capability() });
        assert!(renders_html(declared.as_object()));
        assert!(!renders_html(
            json!({EXTENSION: {"mimeTypes": []}}).as_object()
        ));
        assert!(!renders_html(None));
    }
}
