use std::fmt;
use std::str::FromStr;

/// A protocol revision the engine speaks. Revisions are dates; they compare in time order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolVersion {
    V2024_11_05,
    V2025_03_26,
    V2025_06_18,
    V2025_11_25,
    /// The stateless revision: no `initialize` handshake, `server/discover` instead.
    V2026_07_28,
}

/// A revision string the engine does not speak, kept verbatim for the error message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unsupported protocol revision {0:?} (supported: {supported})", supported = ProtocolVersion::supported_list())]
pub struct UnsupportedVersion(pub String);

impl ProtocolVersion {
    pub const NEWEST_FIRST: [Self; 5] = [
        Self::V2026_07_28,
        Self::V2025_11_25,
        Self::V2025_06_18,
        Self::V2025_03_26,
        Self::V2024_11_05,
    ];

    /// The revision offered in an `initialize` request.
    pub const LATEST_STATEFUL: Self = Self::V2025_11_25;

    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V2024_11_05 => "2024-11-05",
            Self::V2025_03_26 => "2025-03-26",
            Self::V2025_06_18 => "2025-06-18",
            Self::V2025_11_25 => "2025-11-25",
            Self::V2026_07_28 => "2026-07-28",
        }
    }

    /// Whether sessions of this revision begin with the `initialize` handshake.
    pub const fn is_stateful(self) -> bool {
        !matches!(self, Self::V2026_07_28)
    }

    fn supported_list() -> String {
        Self::NEWEST_FIRST.map(Self::as_str).join(", ")
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ProtocolVersion {
    type Err = UnsupportedVersion;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::NEWEST_FIRST
            .into_iter()
            .find(|v| v.as_str() == s)
            .ok_or_else(|| UnsupportedVersion(s.to_owned()))
    }
}

impl serde::Serialize for ProtocolVersion {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for ProtocolVersion {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_revision_round_trips_through_its_string() {
        for v in ProtocolVersion::NEWEST_FIRST {
            assert_eq!(v.as_str().parse::<ProtocolVersion>(), Ok(v));
            let json = serde_json::to_string(&v).unwrap();
            assert_eq!(json, format!("\"{}\"", v.as_str()));
            assert_eq!(serde_json::from_str::<ProtocolVersion>(&json).unwrap(), v);
        }
    }

    #[test]
    fn revisions_order_by_date_and_list_newest_first() {
        let mut sorted = ProtocolVersion::NEWEST_FIRST;
        sorted.sort();
        sorted.reverse();
        assert_eq!(sorted, ProtocolVersion::NEWEST_FIRST);
    }

    #[test]
    fn an_unknown_revision_is_refused_with_the_supported_list() {
        let err = "2023-01-01".parse::<ProtocolVersion>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unsupported protocol revision \"2023-01-01\" (supported: 2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05)"
        );
        assert!(serde_json::from_str::<ProtocolVersion>("\"DRAFT\"").is_err());
    }

    #[test]
    fn only_the_newest_revision_is_stateless() {
        let stateless: Vec<_> = ProtocolVersion::NEWEST_FIRST
            .into_iter()
            .filter(|v| !v.is_stateful())
            .collect();
        assert_eq!(stateless, [ProtocolVersion::V2026_07_28]);
        assert!(ProtocolVersion::LATEST_STATEFUL.is_stateful());
    }
}
