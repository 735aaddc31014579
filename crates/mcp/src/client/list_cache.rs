//! List pages kept while the server says they are fresh (`ttlMs`, 2026-07-28): each page
//! by its method and cursor, fresh from when it arrived, dropped at once by the list's
//! change notification. A page without a positive `ttlMs` (every stateful-era page) is
//! never kept.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;

use crate::types::{CacheHints, method};

/// Pages kept at most; a server with more pages than this is simply asked again.
const MAX_PAGES: usize = 256;

#[derive(Default)]
pub(crate) struct ListCache {
    pages: Mutex<HashMap<(&'static str, Option<String>), Page>>,
}

struct Page {
    result: Value,
    fresh_until: Instant,
}

impl ListCache {
    /// The page of `method` at `cursor`, if it is still fresh.
    pub(crate) fn get(&self, method: &'static str, cursor: Option<&str>) -> Option<Value> {
        let pages = self.pages.lock().unwrap_or_else(|p| p.into_inner());
        let page = pages.get(&(method, cursor.map(str::to_owned)))?;
        (Instant::now() < page.fresh_until).then(|| page.result.clone())
    }

    /// Keeps a page the server says stays fresh for a while.
    pub(crate) fn put(
        &self,
        method: &'static str,
        cursor: Option<&str>,
        result: &Value,
        received: Instant,
    ) {
        let ttl = serde_json::from_value::<CacheHints>(result.clone())
            .ok()
            .and_then(|hints| hints.ttl_ms)
            .filter(|ms| *ms > 0);
        let Some(ttl) = ttl else { return };
        let fresh_until = received + Duration::from_millis(ttl.unsigned_abs());
        let mut pages = self.pages.lock().unwrap_or_else(|p| p.into_inner());
        if pages.len() >= MAX_PAGES {
            let now = Instant::now();
            pages.retain(|_, page| page.fresh_until > now);
            if pages.len() >= MAX_PAGES {
                return;
            }
        }
        pages.insert(
            (method, cursor.map(str::to_owned)),
            Page {
                result: result.clone(),
                fresh_until,
            },
        );
    }

    /// Forgets every page of the lists a change notification concerns.
    pub(crate) fn changed(&self, notification_method: &str) {
        let lists: &[&str] = match notification_method {
            method::TOOLS_LIST_CHANGED => &[method::TOOLS_LIST],
            method::PROMPTS_LIST_CHANGED => &[method::PROMPTS_LIST],
            method::RESOURCES_LIST_CHANGED => {
                &[method::RESOURCES_LIST, method::RESOURCES_TEMPLATES_LIST]
            }
            _ => return,
        };
        self.forget(lists);
    }

    /// Forgets every page of these lists.
    pub(crate) fn forget(&self, lists: &[&str]) {
        let mut pages = self.pages.lock().unwrap_or_else(|p| p.into_inner());
        pages.retain(|(list, _), _| !lists.contains(list));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[tokio::test(start_paused = true)]
    async fn a_page_is_fresh_for_its_ttl_from_when_it_arrived() {
        let cache = ListCache::default();
        let page = json!({"tools": [], "ttlMs": 1000});
        cache.put(method::TOOLS_LIST, None, &page, Instant::now());
        assert_eq!(cache.get(method::TOOLS_LIST, None), Some(page));
        assert_eq!(cache.get(method::TOOLS_LIST, Some("next")), None);
        tokio::time::advance(Duration::from_millis(1000)).await;
        assert_eq!(cache.get(method::TOOLS_LIST, None), None);
    }

    #[tokio::test]
    async fn no_ttl_zero_or_negative_means_not_kept() {
        let cache = ListCache::default();
        for page in [
            json!({"tools": []}),
            json!({"tools": [], "ttlMs": 0}),
            json!({"tools": [], "ttlMs": -5}),
        ] {
            cache.put(method::TOOLS_LIST, None, &page, Instant::now());
            assert_eq!(cache.get(method::TOOLS_LIST, None), None, "{page}");
        }
    }

    #[tokio::test]
    async fn a_change_notification_drops_its_lists_only() {
        let cache = ListCache::default();
        let page = json!({"ttlMs": 60000});
        for list in [
            method::TOOLS_LIST,
            method::RESOURCES_LIST,
            method::RESOURCES_TEMPLATES_LIST,
        ] {
            cache.put(list, None, &page, Instant::now());
        }
        cache.changed(method::RESOURCES_LIST_CHANGED);
        assert!(cache.get(method::TOOLS_LIST, None).is_some());
        assert!(cache.get(method::RESOURCES_LIST, None).is_none());
        assert!(cache.get(method::RESOURCES_TEMPLATES_LIST, None).is_none());
    }
}
