//! Skills (the `io.modelcontextprotocol/skills` extension, SEP-2640): a server's skills are
//! listed (`skills/list`) with their frontmatter and a manifest of their files, each an
//! ordinary resource with its SHA-256 digest and size. A skill is loaded only when it is
//! needed, and only as its manifest says (see `client::skills`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::common::Cursor;
use super::listing::{SkippedItem, page};

/// The extension's id, in both parties' `capabilities.extensions`.
pub const EXTENSION: &str = "io.modelcontextprotocol/skills";
/// Lists a server's skills.
pub const SKILLS_LIST: &str = "skills/list";

/// One file of a skill, as its manifest pins it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillFile {
    pub uri: String,
    /// `sha256:` and the hex digest of the file's bytes.
    pub digest: String,
    /// Its length in bytes.
    pub size: u64,
}

/// A skill as its server lists it: its `SKILL.md` (`uri`), that file's frontmatter as
/// JSON, and every file of the skill, `SKILL.md` among them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    pub uri: String,
    pub frontmatter: Map<String, Value>,
    pub resources: Vec<SkillFile>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Skill {
    /// Its name, as its frontmatter says.
    pub fn name(&self) -> Option<&str> {
        self.frontmatter.get("name").and_then(Value::as_str)
    }
}

/// One page of `skills/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(remote = "Self", rename_all = "camelCase")]
pub struct ListSkillsResult {
    pub skills: Vec<Skill>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub next_cursor: Option<Cursor>,
    /// Skills of this page that could not be read, left out of the list above.
    #[serde(skip)]
    pub skipped: Vec<SkippedItem>,
}

page!(ListSkillsResult, skills: Skill, "skills");
