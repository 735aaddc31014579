//! A server's skills (SEP-2640), as a host takes them: listed when asked, never read ahead
//! of need; a skill is loaded only when the model or the person asks for it, and only as
//! its manifest says: its `SKILL.md` is read first and checked (its size, its SHA-256, and
//! its YAML frontmatter field by field against the listed one); then each other file, each
//! checked the same way. The first file that fails stops the load: nothing of a skill that
//! fails is used, and no file after it is read.

use base64::Engine as _;
use serde_json::{Number, Value};
use sha2::{Digest, Sha256};
use yaml_rust2::{Yaml, YamlLoader};

use super::{Client, ClientError};
use crate::types::skills::{EXTENSION, ListSkillsResult, SKILLS_LIST, Skill, SkillFile};
use crate::types::{ReadResourceResult, ResourceContents};

/// Why a skill was not loaded. Serialized by kind, but for `Read`, which a caller tells
/// as the request's failure.
#[derive(Debug, Clone, PartialEq, thiserror::Error, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(
    tag = "kind",
    content = "of",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum SkillError {
    #[error(transparent)]
    #[serde(skip)]
    Read(#[from] ClientError),
    #[error("{0} is not in the skill's manifest")]
    NotListed(String),
    #[error("{uri} is {found} bytes, and the manifest says {listed}")]
    Size {
        uri: String,
        listed: u64,
        found: u64,
    },
    #[error("{uri} does not match its digest in the manifest")]
    Digest { uri: String },
    #[error("the frontmatter of {uri} is not what the server listed: {why}")]
    Frontmatter { uri: String, why: String },
    #[error("{uri} has no contents")]
    Empty { uri: String },
}

/// A skill loaded and verified: each file's bytes, `SKILL.md` first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadedSkill {
    pub files: Vec<(String, Vec<u8>)>,
}

impl LoadedSkill {
    /// The text of its `SKILL.md`.
    pub fn instructions(&self) -> String {
        self.files
            .first()
            .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
            .unwrap_or_default()
    }
}

impl Client {
    /// Whether the server offers skills (`capabilities.extensions`).
    pub fn offers_skills(&self) -> bool {
        // Servers declare extensions beside the capabilities this crate models.
        self.capabilities()
            .extra
            .get("extensions")
            .and_then(Value::as_object)
            .is_some_and(|e| e.contains_key(EXTENSION))
    }

    /// Every skill the server lists (`skills/list`, each page); no file is read. A skill
    /// that does not read is left out, and said in the log.
    pub async fn list_skills(&self) -> Result<Vec<Skill>, ClientError> {
        self.require(self.offers_skills(), "skills")?;
        let listed = self.walk::<ListSkillsResult>(SKILLS_LIST).await?;
        for skipped in &listed.skipped {
            tracing::warn!("{SKILLS_LIST}: {skipped}");
        }
        Ok(listed.items)
    }

    /// Loads `skill` as its manifest says, each file verified before the next is read.
    pub async fn load_skill(&self, skill: &Skill) -> Result<LoadedSkill, SkillError> {
        let entry = listed(skill, &skill.uri)?;
        let instructions = self.verified(entry).await?;
        check_frontmatter(skill, &instructions)?;
        let mut files = vec![(skill.uri.clone(), instructions)];
        for file in skill.resources.iter().filter(|f| f.uri != skill.uri) {
            files.push((file.uri.clone(), self.verified(file).await?));
        }
        Ok(LoadedSkill { files })
    }

    /// The bytes of `file`, read and checked against its size and digest.
    async fn verified(&self, file: &SkillFile) -> Result<Vec<u8>, SkillError> {
        let read = self
            .read_resource(&file.uri, self.request_options())
            .await?;
        let bytes = bytes_of(&file.uri, read)?;
        verify(file, &bytes)?;
        Ok(bytes)
    }
}

fn listed<'a>(skill: &'a Skill, uri: &str) -> Result<&'a SkillFile, SkillError> {
    skill
        .resources
        .iter()
        .find(|f| f.uri == uri)
        .ok_or_else(|| SkillError::NotListed(uri.to_owned()))
}

fn bytes_of(uri: &str, read: ReadResourceResult) -> Result<Vec<u8>, SkillError> {
    let contents = read
        .contents
        .into_iter()
        .next()
        .ok_or_else(|| SkillError::Empty {
            uri: uri.to_owned(),
        })?;
    Ok(match contents {
        ResourceContents::Text(text) => text.text.into_bytes(),
        ResourceContents::Blob(blob) => base64::engine::general_purpose::STANDARD
            .decode(blob.blob.as_bytes())
            .map_err(|_| SkillError::Digest {
                uri: uri.to_owned(),
            })?,
    })
}

/// Checks `bytes` against the size and digest `file` pins.
fn verify(file: &SkillFile, bytes: &[u8]) -> Result<(), SkillError> {
    let found = bytes.len() as u64;
    if found != file.size {
        return Err(SkillError::Size {
            uri: file.uri.clone(),
            listed: file.size,
            found,
        });
    }
    let digest: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if !file
        .digest
        .strip_prefix("sha256:")
        .is_some_and(|d| d.eq_ignore_ascii_case(&digest))
    {
        return Err(SkillError::Digest {
            uri: file.uri.clone(),
        });
    }
    Ok(())
}

/// Compares the YAML frontmatter of `SKILL.md` with the one the server listed, field by
/// field.
fn check_frontmatter(skill: &Skill, instructions: &[u8]) -> Result<(), SkillError> {
    let fail = |why: String| SkillError::Frontmatter {
        uri: skill.uri.clone(),
        why,
    };
    let text = String::from_utf8_lossy(instructions);
    let body = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or_else(|| fail("it has none".into()))?;
    let end = body
        .find("\n---")
        .ok_or_else(|| fail("it does not end".into()))?;
    let parsed = YamlLoader::load_from_str(&body[..end]).map_err(|e| fail(e.to_string()))?;
    let Some(Value::Object(found)) = parsed.first().map(json_of) else {
        return Err(fail("it is not a mapping".into()));
    };
    for key in found.keys().chain(skill.frontmatter.keys()) {
        if found.get(key) != skill.frontmatter.get(key) {
            return Err(fail(format!("its {key} differs")));
        }
    }
    Ok(())
}

fn json_of(yaml: &Yaml) -> Value {
    match yaml {
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Real(r) => r
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map_or_else(|| Value::String(r.clone()), Value::Number),
        Yaml::Integer(i) => Value::from(*i),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(items) => Value::Array(items.iter().map(json_of).collect()),
        Yaml::Hash(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let key = match k {
                        Yaml::String(s) => s.clone(),
                        other => json_of(other).to_string(),
                    };
                    (key, json_of(v))
                })
                .collect(),
        ),
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SKILL_MD: &str = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\nmetadata:\n  version: 2\n---\n# PDF\nSkill body.\n";

    fn skill() -> Skill {
        let digest: String = Sha256::digest(SKILL_MD.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        serde_json::from_value(json!({
            "uri": "skill://pdf-processing/SKILL.md",
            "frontmatter": {"name": "pdf-processing",
                "description": "Extract, fill, and assemble PDF documents",
                "metadata": {"version": 2}},
            "resources": [{"uri": "skill://pdf-processing/SKILL.md",
                "digest": format!("sha256:{digest}"), "size": SKILL_MD.len()}]
        }))
        .unwrap()
    }

    #[test]
    fn a_file_is_checked_against_its_size_and_digest_and_the_frontmatter_field_by_field() {
        let skill = skill();
        let file = &skill.resources[0];
        assert!(verify(file, SKILL_MD.as_bytes()).is_ok());
        assert!(check_frontmatter(&skill, SKILL_MD.as_bytes()).is_ok());
        let evil = SKILL_MD.replace("Skill body.", "Evil body!!");
        assert!(matches!(
            verify(file, evil.as_bytes()),
            Err(SkillError::Digest { .. })
        ));
        let longer = format!("{SKILL_MD}more");
        assert!(matches!(
            verify(file, longer.as_bytes()),
            Err(SkillError::Size { .. })
        ));
        let other = SKILL_MD.replace(
            "description: Extract, fill, and assemble PDF documents",
            "description: Exfiltrate credentials",
        );
        let why = check_frontmatter(&skill, other.as_bytes())
            .unwrap_err()
            .to_string();
        assert!(why.contains("its description differs"), "{why}");
        let extra = SKILL_MD.replace("metadata:", "allowed-tools: Bash\nmetadata:");
        assert!(
            check_frontmatter(&skill, extra.as_bytes()).is_err(),
            "a field the listing lacks"
        );
        assert!(check_frontmatter(&skill, b"# no frontmatter").is_err());
    }
}
