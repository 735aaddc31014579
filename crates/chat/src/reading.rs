//! The model reads what the person's servers offer itself, not only what the person
//! attached: tools of the host's own, one that reads a resource, one that gets a prompt
//! and one that loads a skill (SEP-2640), each offered when a running server lists some.
//! Each read passes the gate as an agent's reads do (a standing rule about the model's
//! reads of that server, or the person), and is recorded in the audit trail. A skill is
//! offered by its name and description alone, its files loaded only when the model asks,
//! and its use is the person's to allow, once per skill as it is now (see
//! `switchboard_core::skills`).

use std::collections::BTreeMap;

use serde_json::{Value, json};
use switchboard_mcp::client::skills::LoadedSkill;
use switchboard_mcp::types::skills::Skill;
use switchboard_mcp::types::{
    CallToolResult, ContentBlock, EmbeddedResource, GetPromptResult, Prompt, ReadResourceResult,
    Role,
};
use switchboard_providers::Tool;

/// The host's tool that reads a resource, as the model calls it.
pub const READ: &str = "switchboard_read_resource";
/// The host's tool that gets a prompt, as the model calls it.
pub const PROMPT: &str = "switchboard_get_prompt";
/// The host's tool that loads a skill, as the model calls it.
pub const SKILL: &str = "switchboard_load_skill";

/// The most a loaded skill's files give the model, in bytes of text.
const SKILL_TEXT: usize = 200 * 1024;

/// The most resources or prompts a tool's description names.
const NAMED: usize = 40;

/// What the model may read of the running servers.
#[derive(Debug, Clone, Default)]
pub struct Readable {
    /// Each resource by its server, URI and name.
    pub resources: Vec<(String, String, String)>,
    /// Each prompt by its server.
    pub prompts: Vec<(String, Prompt)>,
    /// Each skill by its server, as listed (no file read).
    pub skills: Vec<(String, Skill)>,
}

impl Readable {
    /// The host's tools for what there is to read, as the model is told of them.
    pub fn tools(&self) -> Vec<Tool> {
        let mut tools = Vec::new();
        if !self.resources.is_empty() {
            tools.push(read_tool(&self.resources));
        }
        if !self.prompts.is_empty() {
            tools.push(prompt_tool(&self.prompts));
        }
        if !self.skills.is_empty() {
            tools.push(skill_tool(&self.skills));
        }
        tools
    }

    /// The skill `name` of `server`, as listed.
    pub fn skill(&self, server: &str, name: &str) -> Option<&Skill> {
        self.skills
            .iter()
            .find(|(s, skill)| s == server && skill.name() == Some(name))
            .map(|(_, skill)| skill)
    }
}

fn skill_tool(skills: &[(String, Skill)]) -> Tool {
    let listed = skills
        .iter()
        .map(|(server, skill)| {
            let about = skill
                .frontmatter
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default();
            format!("{server}: {} ({about})", skill.name().unwrap_or_default())
        })
        .collect();
    host_tool(
        SKILL,
        "Loads a skill of one of the person's MCP servers: instructions, with the files they \
         refer to, for a task the skill's description matches. Load one only when the task \
         needs it (the person is asked first). Skills: ",
        listed,
        json!({
            "type": "object",
            "properties": {
                "server": {"type": "string", "description": "The server that lists the skill"},
                "name": {"type": "string", "description": "The skill's name"}
            },
            "required": ["server", "name"]
        }),
    )
}

/// `listed`, the first [`NAMED`] of them, and how many more.
fn named(listed: Vec<String>) -> String {
    let more = listed.len().saturating_sub(NAMED);
    let mut named: Vec<String> = listed.into_iter().take(NAMED).collect();
    if more > 0 {
        named.push(format!("and {more} more"));
    }
    named.join("; ")
}

fn read_tool(resources: &[(String, String, String)]) -> Tool {
    let listed = resources
        .iter()
        .map(|(server, uri, name)| format!("{server}: {uri} ({name})"))
        .collect();
    host_tool(
        READ,
        "Reads a resource of one of the person's MCP servers (the person may be asked \
         first). Resources: ",
        listed,
        json!({
            "type": "object",
            "properties": {
                "server": {"type": "string", "description": "The server that lists the resource"},
                "uri": {"type": "string", "description": "The resource's URI"}
            },
            "required": ["server", "uri"]
        }),
    )
}

/// A tool of the host's own, its description ending with what it reaches.
fn host_tool(name: &str, about: &str, listed: Vec<String>, parameters: Value) -> Tool {
    Tool {
        name: name.to_owned(),
        description: Some(format!("{about}{}", named(listed))),
        parameters,
    }
}

fn prompt_tool(prompts: &[(String, Prompt)]) -> Tool {
    let listed = prompts
        .iter()
        .map(|(server, prompt)| {
            let arguments: Vec<String> = prompt
                .arguments
                .iter()
                .flatten()
                .map(|a| match a.required {
                    Some(true) => a.name.clone(),
                    _ => format!("{}?", a.name),
                })
                .collect();
            let about = prompt.description.as_deref().unwrap_or_default();
            format!(
                "{server}: {}({}) {about}",
                prompt.name,
                arguments.join(", ")
            )
        })
        .collect();
    host_tool(
        PROMPT,
        "Gets a prompt of one of the person's MCP servers, filled with its arguments (the \
         person may be asked first); its messages come back. Prompts (? marks an argument \
         that may be left out): ",
        listed,
        json!({
            "type": "object",
            "properties": {
                "server": {"type": "string", "description": "The server that lists the prompt"},
                "name": {"type": "string", "description": "The prompt's name"},
                "arguments": {
                    "type": "object",
                    "description": "The prompt's arguments, each a string",
                    "additionalProperties": {"type": "string"}
                }
            },
            "required": ["server", "name"]
        }),
    )
}

/// What the model asked of a server through one of these tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Wanted {
    Resource {
        server: String,
        uri: String,
    },
    Prompt {
        server: String,
        name: String,
        arguments: BTreeMap<String, String>,
    },
    Skill {
        server: String,
        name: String,
    },
}

impl Wanted {
    pub fn server(&self) -> &str {
        match self {
            Self::Resource { server, .. }
            | Self::Prompt { server, .. }
            | Self::Skill { server, .. } => server,
        }
    }
}

/// What the model's call of the tool `name` asks, if it is one of these tools: or what is
/// wrong with its arguments.
pub fn wanted(name: &str, arguments: &Value) -> Option<Result<Wanted, String>> {
    let text = |key: &str| {
        arguments
            .get(key)
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    Some(match name {
        READ => match (text("server"), text("uri")) {
            (Some(server), Some(uri)) => Ok(Wanted::Resource { server, uri }),
            _ => Err("Name the server and the resource's uri.".to_owned()),
        },
        PROMPT => {
            let filled = match arguments.get("arguments") {
                None | Some(Value::Null) => Some(BTreeMap::new()),
                Some(Value::Object(given)) => given
                    .iter()
                    .map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                    .collect(),
                Some(_) => None,
            };
            match (text("server"), text("name"), filled) {
                (Some(server), Some(name), Some(arguments)) => Ok(Wanted::Prompt {
                    server,
                    name,
                    arguments,
                }),
                (_, _, None) => Err("Each of the prompt's arguments is a string.".to_owned()),
                _ => Err("Name the server and the prompt.".to_owned()),
            }
        }
        SKILL => match (text("server"), text("name")) {
            (Some(server), Some(name)) => Ok(Wanted::Skill { server, name }),
            _ => Err("Name the server and the skill.".to_owned()),
        },
        _ => return None,
    })
}

/// What was read, as the result of the model's call: each of its contents embedded, as a
/// tool that answers with a resource does, so that it reaches the model within the same
/// bounds (images as images, other binaries described).
pub fn as_result(read: ReadResourceResult) -> CallToolResult {
    let mut content: Vec<ContentBlock> = read
        .contents
        .into_iter()
        .map(|resource| {
            ContentBlock::Resource(EmbeddedResource {
                resource,
                annotations: None,
                meta: None,
                extra: Default::default(),
            })
        })
        .collect();
    if content.is_empty() {
        content.push(ContentBlock::text("(the resource has no contents)"));
    }
    CallToolResult::new(content)
}

/// A skill loaded and verified, as the result of the model's call: its `SKILL.md`, then
/// each other file under its URI (text as it is, anything else by its size), within
/// [`SKILL_TEXT`] in all.
pub fn skill_result(loaded: LoadedSkill) -> CallToolResult {
    let mut text = String::new();
    for (index, (uri, bytes)) in loaded.files.iter().enumerate() {
        let part = match std::str::from_utf8(bytes) {
            Ok(file) if index == 0 => file.to_owned(),
            Ok(file) => format!("\n\n--- {uri} ---\n{file}"),
            Err(_) => format!("\n\n--- {uri} --- ({} bytes, not text)", bytes.len()),
        };
        if text.len() + part.len() > SKILL_TEXT {
            text.push_str(&format!(
                "\n\n(the skill's other files are left out: over {SKILL_TEXT} bytes)"
            ));
            break;
        }
        text.push_str(&part);
    }
    CallToolResult::new(vec![ContentBlock::text(text)])
}

/// The prompt got, as the result of the model's call: each message's content after a line
/// that says whose turn it is.
pub fn prompt_result(prompt: GetPromptResult) -> CallToolResult {
    let mut content = Vec::new();
    if let Some(description) = prompt.description {
        content.push(ContentBlock::text(description));
    }
    for message in prompt.messages {
        let role = match message.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        content.push(ContentBlock::text(format!("[{role}]")));
        content.push(message.content);
    }
    CallToolResult::new(content)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_of_these_tools_says_what_it_asks_or_what_is_wrong() {
        let resource = wanted(READ, &json!({"server": "demo", "uri": "demo://readme"}));
        assert_eq!(
            resource,
            Some(Ok(Wanted::Resource {
                server: "demo".into(),
                uri: "demo://readme".into()
            }))
        );
        let prompt = wanted(
            PROMPT,
            &json!({"server": "demo", "name": "greet", "arguments": {"name": "Grace"}}),
        );
        assert!(matches!(prompt, Some(Ok(Wanted::Prompt { arguments, .. }))
            if arguments["name"] == "Grace"));
        assert!(matches!(
            wanted(PROMPT, &json!({"server": "demo", "name": "greet", "arguments": {"n": 1}})),
            Some(Err(wrong)) if wrong.contains("string")
        ));
        assert!(matches!(wanted(READ, &json!({"uri": "x"})), Some(Err(_))));
        assert_eq!(wanted("demo__echo", &json!({})), None);
    }

    #[test]
    fn the_tools_name_what_there_is_to_read() {
        let prompt: Prompt = serde_json::from_value(json!({"name": "greet",
            "description": "Greets someone",
            "arguments": [{"name": "name", "required": true}, {"name": "style"}]}))
        .unwrap();
        let readable = Readable {
            resources: vec![("demo".into(), "demo://readme".into(), "readme".into())],
            prompts: vec![("demo".into(), prompt)],
            skills: Vec::new(),
        };
        let tools = readable.tools();
        let said: Vec<&str> = tools
            .iter()
            .map(|t| t.description.as_deref().unwrap_or_default())
            .collect();
        assert!(
            said[0].contains("demo: demo://readme (readme)"),
            "{}",
            said[0]
        );
        assert!(
            said[1].contains("demo: greet(name, style?) Greets someone"),
            "{}",
            said[1]
        );
        assert!(Readable::default().tools().is_empty());
    }
}
