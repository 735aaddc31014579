//! Optional members read leniently: one odd member must not cost the object around it.
//!
//! Servers write optional members in ways the schema does not allow (`sizes` as a string, a
//! negative `size`, a log level of their own). Such a member only describes something, so
//! it is dropped and the object (a tool, a resource, the server's own description, a log
//! entry) is kept. Members that change what a request asks for or what an answer means (a
//! call's arguments, the tools offered to a model, `isError`, a form's answer) stay strict:
//! a malformed message is refused, not misread. A list item whose required members are
//! broken is left out of its page and reported (see [`super::listing`]).
//!
//! Used as `#[serde(default, with = "lenient")]` on an `Option` field, and
//! `with = "lenient::list"` on an optional list whose odd items are dropped one by one.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// The member if it reads as a `T`, else `None`.
pub(crate) fn deserialize<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    Ok(serde_json::from_value(Value::deserialize(deserializer)?).ok())
}

/// Written as it is: leniency is about reading.
pub(crate) fn serialize<S: Serializer, T: Serialize>(
    value: &Option<T>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    value.serialize(serializer)
}

/// An optional list: the items that read as a `T`; `None` if it is not a list at all.
pub(crate) mod list {
    use super::*;

    pub(crate) fn deserialize<'de, D, T>(deserializer: D) -> Result<Option<Vec<T>>, D::Error>
    where
        D: Deserializer<'de>,
        T: DeserializeOwned,
    {
        match Value::deserialize(deserializer)? {
            Value::Array(items) => Ok(Some(readable(items))),
            _ => Ok(None),
        }
    }

    pub(crate) use super::serialize;
}

/// A required list whose odd items are dropped (it must still be a list).
pub(crate) fn items<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    Vec::<Value>::deserialize(deserializer).map(readable)
}

fn readable<T: DeserializeOwned>(items: Vec<Value>) -> Vec<T> {
    items
        .into_iter()
        .filter_map(|item| serde_json::from_value(item).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};
    use serde_json::json;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Sample {
        #[serde(skip_serializing_if = "Option::is_none", default, with = "super")]
        size: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none", default, with = "super::list")]
        sizes: Option<Vec<String>>,
        #[serde(deserialize_with = "super::items")]
        values: Vec<String>,
    }

    #[test]
    fn odd_members_are_dropped_and_good_ones_kept() {
        let odd: Sample =
            serde_json::from_value(json!({"size": -1, "sizes": "48x48", "values": ["a", 2, "b"]}))
                .unwrap();
        assert_eq!(
            odd,
            Sample {
                size: None,
                sizes: None,
                values: vec!["a".into(), "b".into()]
            }
        );
        let good = json!({"size": 3, "sizes": ["any", 5], "values": []});
        let read: Sample = serde_json::from_value(good).unwrap();
        assert_eq!(read.size, Some(3));
        assert_eq!(read.sizes, Some(vec!["any".to_owned()]));
        assert_eq!(
            serde_json::to_value(&read).unwrap(),
            json!({"size": 3, "sizes": ["any"], "values": []})
        );
        assert!(serde_json::from_value::<Sample>(json!({"values": "a"})).is_err());
        assert!(serde_json::from_value::<Sample>(json!({})).is_err());
    }
}
