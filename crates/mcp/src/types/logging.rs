//! Logging: the level a client asks for, and the log messages a server sends.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::lenient;

use super::common::Meta;

/// A syslog severity (RFC 5424), ordered from `Debug` (least) to `Emergency` (most severe).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LoggingLevel {
    Debug,
    Info,
    Notice,
    Warning,
    Error,
    Critical,
    Alert,
    Emergency,
}

impl LoggingLevel {
    /// Every level, least severe first.
    pub const ALL: [Self; 8] = [
        Self::Debug,
        Self::Info,
        Self::Notice,
        Self::Warning,
        Self::Error,
        Self::Critical,
        Self::Alert,
        Self::Emergency,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Debug => "debug",
            Self::Info => "info",
            Self::Notice => "notice",
            Self::Warning => "warning",
            Self::Error => "error",
            Self::Critical => "critical",
            Self::Alert => "alert",
            Self::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LoggingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A level name that is not one of the eight syslog levels.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown logging level {0:?} (expected one of debug, info, notice, warning, error, critical, alert, emergency)"
)]
pub struct UnknownLoggingLevel(pub String);

impl FromStr for LoggingLevel {
    type Err = UnknownLoggingLevel;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|level| level.as_str() == s)
            .ok_or_else(|| UnknownLoggingLevel(s.to_owned()))
    }
}

/// Params of `logging/setLevel`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetLevelRequestParams {
    pub level: LoggingLevel,
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

impl SetLevelRequestParams {
    pub fn new(level: LoggingLevel) -> Self {
        Self {
            level,
            meta: None,
            extra: Map::new(),
        }
    }
}

/// Params of `notifications/message`: one log entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoggingMessageNotificationParams {
    /// Required, but `None` when it is not one of the eight levels: the entry is kept.
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub level: Option<LoggingLevel>,
    #[serde(skip_serializing_if = "Option::is_none", default, with = "lenient")]
    pub logger: Option<String>,
    /// Any JSON value: a string, or an object with details.
    pub data: Value,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered_by_severity() {
        assert!(LoggingLevel::Debug < LoggingLevel::Info);
        assert!(LoggingLevel::Warning < LoggingLevel::Error);
        assert!(LoggingLevel::Alert < LoggingLevel::Emergency);
        let mut sorted = LoggingLevel::ALL;
        sorted.sort();
        assert_eq!(sorted, LoggingLevel::ALL);
    }

    #[test]
    fn levels_parse_and_print_as_on_the_wire() {
        for level in LoggingLevel::ALL {
            assert_eq!(level.as_str().parse::<LoggingLevel>(), Ok(level));
            assert_eq!(
                serde_json::to_value(level).unwrap(),
                Value::String(level.to_string())
            );
        }
        assert!("verbose".parse::<LoggingLevel>().is_err());
    }
}
