//! List pages that survive a broken item: the item is left out and the page says which and
//! why, so that a caller can show it instead of losing it silently.

use std::fmt;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::common::Cursor;

/// An item of a list that could not be read (a tool without a name, a resource without a
/// URI), and so was left out of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedItem {
    /// Where it stood in the list as the server sent it, from 0.
    pub index: usize,
    /// Its `name` (or `uri`, `uriTemplate`), if it has one that is text.
    pub name: Option<String>,
    /// Why it could not be read.
    pub reason: String,
}

impl fmt::Display for SkippedItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(
                f,
                "item {} ({name:?}) left out: {}",
                self.index, self.reason
            ),
            None => write!(f, "item {} left out: {}", self.index, self.reason),
        }
    }
}

/// One page of a paginated list result.
pub trait Page: DeserializeOwned {
    type Item;

    /// The items read, the items left out, and the cursor of the next page.
    fn into_parts(self) -> (Vec<Self::Item>, Vec<SkippedItem>, Option<Cursor>);
}

/// Every item of a list, across its pages, and the items that were left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Listing<T> {
    pub items: Vec<T>,
    /// Indexes count from the first item of the first page.
    pub skipped: Vec<SkippedItem>,
}

impl<T> Default for Listing<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            skipped: Vec::new(),
        }
    }
}

impl<T> Listing<T> {
    /// Adds a page's items; returns the cursor of the next page.
    pub fn add<P: Page<Item = T>>(&mut self, page: P) -> Option<Cursor> {
        let (items, skipped, next) = page.into_parts();
        let before = self.items.len() + self.skipped.len();
        self.skipped
            .extend(skipped.into_iter().map(|item| SkippedItem {
                index: before + item.index,
                ..item
            }));
        self.items.extend(items);
        next
    }
}

/// Reads as the list of the items it holds.
impl<T> std::ops::Deref for Listing<T> {
    type Target = Vec<T>;

    fn deref(&self) -> &Vec<T> {
        &self.items
    }
}

impl<T> IntoIterator for Listing<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'a, T> IntoIterator for &'a Listing<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

/// Reads a page whose items are under `key`: the page itself strictly (by `strict`, serde's
/// derived reading), then each item on its own, leaving out those that do not read.
pub(crate) fn read_page<'de, D, P, T>(
    deserializer: D,
    key: &str,
    strict: impl FnOnce(Value) -> Result<P, serde_json::Error>,
) -> Result<(P, Vec<T>, Vec<SkippedItem>), D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    let mut object = Map::<String, Value>::deserialize(deserializer)?;
    // Anything but a list stays in place, for the strict reading to refuse.
    let items = match object.get_mut(key) {
        Some(Value::Array(list)) => std::mem::take(list),
        _ => Vec::new(),
    };
    let page = strict(Value::Object(object)).map_err(D::Error::custom)?;
    let mut read = Vec::with_capacity(items.len());
    let mut skipped = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        let name = ["name", "uri", "uriTemplate"]
            .iter()
            .find_map(|key| item.get(key)?.as_str())
            .map(str::to_owned);
        match serde_json::from_value(item) {
            Ok(item) => read.push(item),
            Err(e) => skipped.push(SkippedItem {
                index,
                name,
                reason: e.to_string(),
            }),
        }
    }
    Ok((page, read, skipped))
}

/// Serde for a page type derived with `#[serde(remote = "Self")]` (which makes the derived
/// code plain functions): the page is read by [`read_page`], items one by one.
macro_rules! page {
    ($page:ident, $items:ident: $item:ty, $key:literal) => {
        impl serde::Serialize for $page {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                $page::serialize(self, serializer)
            }
        }

        impl<'de> serde::Deserialize<'de> for $page {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let (mut page, items, skipped) =
                    $crate::types::listing::read_page::<D, Self, $item>(deserializer, $key, |v| {
                        $page::deserialize(v)
                    })?;
                page.$items = items;
                page.skipped = skipped;
                Ok(page)
            }
        }

        impl $crate::types::listing::Page for $page {
            type Item = $item;

            fn into_parts(
                self,
            ) -> (
                Vec<$item>,
                Vec<$crate::types::listing::SkippedItem>,
                Option<$crate::types::common::Cursor>,
            ) {
                (self.$items, self.skipped, self.next_cursor)
            }
        }
    };
}

pub(crate) use page;
