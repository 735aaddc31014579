//! Completion of prompt arguments and resource template variables.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;

use super::common::Meta;

/// Params of `completion/complete`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompleteRequestParams {
    #[serde(rename = "ref")]
    pub reference: Reference,
    pub argument: CompleteArgument,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub context: Option<CompleteContext>,
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

/// Input for a completion that is not valid: a bad reference or a non-string context value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidCompletionInput(pub String);

impl CompleteRequestParams {
    pub fn new(reference: Reference, name: impl Into<String>, value: impl Into<String>) -> Self {
        Self {
            reference,
            argument: CompleteArgument {
                name: name.into(),
                value: value.into(),
                extra: Map::new(),
            },
            context: None,
            meta: None,
            extra: Map::new(),
        }
    }

    /// Builds params from text: `prompt:NAME` or `template:URI-TEMPLATE`, the argument,
    /// what was typed so far, and the other arguments already chosen (strings only).
    pub fn parse_reference(
        reference: &str,
        argument: &str,
        value: &str,
        context: Option<Map<String, Value>>,
    ) -> Result<Self, InvalidCompletionInput> {
        let reference = Reference::parse(reference)?;
        let mut params = Self::new(reference, argument, value);
        if let Some(context) = context {
            let arguments = context
                .into_iter()
                .map(|(name, value)| match value {
                    Value::String(s) => Ok((name, s)),
                    other => Err(InvalidCompletionInput(format!(
                        "context argument {name:?} must be a string, not {other}"
                    ))),
                })
                .collect::<Result<_, _>>()?;
            params.context = Some(CompleteContext {
                arguments: Some(arguments),
                extra: Map::new(),
            });
        }
        Ok(params)
    }
}

/// What is being completed: a prompt or a resource template.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type")]
pub enum Reference {
    #[serde(rename = "ref/prompt")]
    Prompt(PromptReference),
    #[serde(rename = "ref/resource")]
    Resource(ResourceTemplateReference),
}

impl Reference {
    pub fn prompt(name: impl Into<String>) -> Self {
        Self::Prompt(PromptReference {
            name: name.into(),
            title: None,
            extra: Map::new(),
        })
    }

    pub fn resource(uri_template: impl Into<String>) -> Self {
        Self::Resource(ResourceTemplateReference {
            uri: uri_template.into(),
            extra: Map::new(),
        })
    }

    /// `prompt:NAME` or `template:URI-TEMPLATE`.
    pub fn parse(text: &str) -> Result<Self, InvalidCompletionInput> {
        match text.split_once(':') {
            Some(("prompt", name)) if !name.is_empty() => Ok(Self::prompt(name)),
            Some(("template", uri)) if !uri.is_empty() => Ok(Self::resource(uri)),
            _ => Err(InvalidCompletionInput(format!(
                "reference {text:?} must be prompt:NAME or template:URI-TEMPLATE"
            ))),
        }
    }
}

/// A reference to a prompt by name (`ref/prompt`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptReference {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub title: Option<String>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A reference to a resource template by its URI template (`ref/resource`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceTemplateReference {
    pub uri: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The argument being completed and its partial value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompleteArgument {
    pub name: String,
    pub value: String,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Values already chosen for the other arguments.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CompleteContext {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub arguments: Option<BTreeMap<String, String>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// The result of `completion/complete`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompleteResult {
    pub completion: Completion,
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

/// Suggested values (at most 100), with the total and whether more exist.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Completion {
    #[serde(deserialize_with = "lenient::items")]
    pub values: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub total: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub has_more: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn references_parse_from_text() {
        let params = CompleteRequestParams::parse_reference(
            "prompt:code_review",
            "language",
            "py",
            Some(json!({"framework": "flask"}).as_object().unwrap().clone()),
        )
        .unwrap();
        assert_eq!(
            serde_json::to_value(&params).unwrap(),
            json!({
                "ref": {"type": "ref/prompt", "name": "code_review"},
                "argument": {"name": "language", "value": "py"},
                "context": {"arguments": {"framework": "flask"}}
            })
        );
        let params =
            CompleteRequestParams::parse_reference("template:file:///{path}", "path", "", None)
                .unwrap();
        assert_eq!(params.reference, Reference::resource("file:///{path}"));
        assert!(CompleteRequestParams::parse_reference("tool:x", "a", "", None).is_err());
        assert!(CompleteRequestParams::parse_reference("prompt:", "a", "", None).is_err());
        let bad_context = Some(json!({"n": 1}).as_object().unwrap().clone());
        assert!(CompleteRequestParams::parse_reference("prompt:p", "a", "", bad_context).is_err());
    }

    #[test]
    fn reference_extras_do_not_swallow_the_tag() {
        let v = json!({"type": "ref/resource", "uri": "db://{table}", "x": true});
        let r: Reference = serde_json::from_value(v.clone()).unwrap();
        let Reference::Resource(res) = &r else {
            panic!("{r:?}")
        };
        assert_eq!(res.extra.len(), 1);
        assert_eq!(serde_json::to_value(&r).unwrap(), v);
    }
}
