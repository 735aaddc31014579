//! A server's skills (SEP-2640) as the person sees them in the explorer: each by its name
//! and description, its files and their sizes, and whether models may use it as it is now.
//! Its files are read, and checked against its manifest, only when the person loads it.

use serde::Serialize;
use serde_json::Value;
use switchboard_core::skills::{self, SkillPin};
use switchboard_mcp::types::skills::Skill;

use super::{Explorer, ExplorerError};

/// One file of a skill, as its manifest lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SkillFileShown {
    pub uri: String,
    /// Its size in bytes, as listed (a skill is at most 16 MiB).
    pub size: u32,
}

/// A skill as its server lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SkillSummary {
    /// Its `SKILL.md`.
    pub uri: String,
    pub name: String,
    pub description: Option<String>,
    pub files: Vec<SkillFileShown>,
    /// The person let models use it, and it is as it was then.
    pub allowed_for_models: bool,
}

/// A skill loaded and checked: its instructions, and its files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SkillLoaded {
    pub uri: String,
    pub name: String,
    /// Its `SKILL.md`, as served (and found to match its manifest).
    pub instructions: String,
    pub files: Vec<SkillFileShown>,
}

fn files(skill: &Skill) -> Vec<SkillFileShown> {
    skill
        .resources
        .iter()
        .map(|file| SkillFileShown {
            uri: file.uri.clone(),
            size: u32::try_from(file.size).unwrap_or(u32::MAX),
        })
        .collect()
}

impl Explorer {
    /// The skills `server` lists, as last listed (no file of theirs is read).
    pub fn skills(&self, server: &str) -> Result<Vec<SkillSummary>, ExplorerError> {
        let config = self.server(server)?;
        let pins = self.host.trusted_skills();
        let offer = self.catalog.offer(server).unwrap_or_default();
        Ok(offer
            .skills
            .iter()
            .map(|skill| {
                let now = SkillPin::of(server, config.identity(), skill);
                SkillSummary {
                    uri: skill.uri.clone(),
                    name: skill.name().unwrap_or(&skill.uri).to_owned(),
                    description: skill
                        .frontmatter
                        .get("description")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    files: files(skill),
                    allowed_for_models: now.is_some_and(|now| skills::allowed(&pins, &now)),
                }
            })
            .collect())
    }

    /// Loads the skill `uri` of `server` for the person: each file read and checked as the
    /// manifest the server listed says, the first that fails stopping the load.
    pub async fn load_skill(&self, server: &str, uri: &str) -> Result<SkillLoaded, ExplorerError> {
        let client = self.client(server)?;
        let skill = self
            .catalog
            .offer(server)
            .and_then(|offer| offer.skills.into_iter().find(|s| s.uri == uri))
            .ok_or_else(|| ExplorerError::BadRequest(format!("{server} lists no skill {uri}")))?;
        let loaded = client.load_skill(&skill).await?;
        Ok(SkillLoaded {
            uri: skill.uri.clone(),
            name: skill.name().unwrap_or(&skill.uri).to_owned(),
            instructions: loaded.instructions(),
            files: files(&skill),
        })
    }
}
