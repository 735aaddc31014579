//! The skills a model uses (SEP-2640). A skill is instructions the model follows, so a
//! model's use of one is approved by the person once per skill and server, and the approval
//! is pinned to the skill as it was then: its `SKILL.md` digest as the manifest gives it, and
//! its server's launch. A skill whose instructions changed since is asked about again.

use switchboard_mcp::types::skills::Skill;

/// A skill the person let models use, as it was then.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "camelCase")]
pub struct SkillPin {
    pub server: String,
    /// The server's identity then (`ServerConfig::identity`).
    pub identity: String,
    /// Its `SKILL.md`.
    pub uri: String,
    /// The digest its manifest gave its `SKILL.md` (`sha256:` and hex).
    pub digest: String,
    /// When it was allowed (ms since the epoch).
    pub at_ms: i64,
}

impl SkillPin {
    /// `skill` of `server` (launched as `identity`) as it is now, pinned now; `None` when its
    /// manifest lists no digest for its `SKILL.md`.
    pub fn of(server: &str, identity: String, skill: &Skill) -> Option<Self> {
        Some(Self {
            server: server.to_owned(),
            identity,
            uri: skill.uri.clone(),
            digest: digest_of(skill)?.to_owned(),
            at_ms: crate::clock::now_ms(),
        })
    }
}

/// The digest the manifest of `skill` gives its `SKILL.md`, if it lists one.
pub fn digest_of(skill: &Skill) -> Option<&str> {
    skill
        .resources
        .iter()
        .find(|file| file.uri == skill.uri)
        .map(|file| file.digest.as_str())
}

/// Whether `now` is allowed as it is: pinned with the same digest, for its server as it
/// is launched now.
pub fn allowed(pins: &[SkillPin], now: &SkillPin) -> bool {
    pins.iter().any(|pin| {
        pin.server == now.server
            && pin.uri == now.uri
            && pin.digest == now.digest
            && pin.identity == now.identity
    })
}

/// The pins with `pin` in place of any of its server's at its URI.
pub fn pinned(pins: &mut Vec<SkillPin>, pin: SkillPin) {
    pins.retain(|p| !(p.server == pin.server && p.uri == pin.uri));
    pins.push(pin);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pin(digest: &str) -> SkillPin {
        SkillPin {
            server: "demo".into(),
            identity: "stdio:demo".into(),
            uri: "skill://tour/SKILL.md".into(),
            digest: digest.into(),
            at_ms: 0,
        }
    }

    #[test]
    fn a_changed_skill_or_server_is_not_allowed_until_pinned_again() {
        let mut pins = Vec::new();
        pinned(&mut pins, pin("sha256:aa"));
        assert!(allowed(&pins, &pin("sha256:aa")));
        assert!(!allowed(&pins, &pin("sha256:bb")));
        let moved = SkillPin {
            identity: "stdio:other".into(),
            ..pin("sha256:aa")
        };
        assert!(!allowed(&pins, &moved));
        pinned(&mut pins, pin("sha256:bb"));
        assert_eq!(pins.len(), 1);
        assert!(allowed(&pins, &pin("sha256:bb")));
    }
}
