//! Subscriptions to servers' resources, shared by whoever follows them: the window and each
//! agent's session with the gateway. A server is asked once per resource, however many
//! follow it, and told to stop when the last lets go; its updates arrive as
//! `Update::ResourceUpdated` for each follower to take or leave.

use parking_lot::Mutex;
use std::collections::{BTreeSet, HashMap};

use super::{Explorer, ExplorerError};

/// Who follows a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Follower {
    /// The person, in the Explorer.
    Window,
    /// One session of an agent with the gateway, by its number.
    Session(u64),
}

/// The followers of each resource, by server and URI.
#[derive(Default)]
pub(super) struct Followed(Mutex<HashMap<(String, String), BTreeSet<Follower>>>);

impl Followed {
    /// Adds `who`; whether the server is to be asked: `who` is the first, or asks again
    /// (the server says whether the resource is still there).
    fn add(&self, key: &(String, String), who: Follower) -> bool {
        let mut held = self.0.lock();
        let followers = held.entry(key.clone()).or_default();
        !followers.insert(who) || followers.len() == 1
    }

    /// Takes `who` away; whether no one is left, so that the server is to be told.
    fn remove(&self, key: &(String, String), who: Follower) -> bool {
        let mut held = self.0.lock();
        let Some(followers) = held.get_mut(key) else {
            return false;
        };
        if !followers.remove(&who) {
            return false;
        }
        let none = followers.is_empty();
        if none {
            held.remove(key);
        }
        none
    }

    fn followed(&self, key: &(String, String)) -> bool {
        self.0.lock().contains_key(key)
    }

    fn by(&self, key: &(String, String), who: Follower) -> bool {
        self.0.lock().get(key).is_some_and(|f| f.contains(&who))
    }

    /// The URIs of `server` someone follows.
    fn on(&self, server: &str) -> Vec<String> {
        self.0
            .lock()
            .keys()
            .filter(|(followed, _)| followed == server)
            .map(|(_, uri)| uri.clone())
            .collect()
    }

    fn of(&self, who: Follower) -> Vec<(String, String)> {
        self.0
            .lock()
            .iter()
            .filter(|(_, followers)| followers.contains(&who))
            .map(|(key, _)| key.clone())
            .collect()
    }
}

impl Explorer {
    /// `who` follows `uri` of `server` from now on; the server is asked unless someone
    /// else followed it already. A refusal of the server leaves `who` not following it.
    pub async fn follow_resource(
        &self,
        who: Follower,
        server: &str,
        uri: &str,
    ) -> Result<(), ExplorerError> {
        let client = self.client(server)?;
        let key = (server.to_owned(), uri.to_owned());
        if !self.followed.add(&key, who) {
            return Ok(());
        }
        if let Err(e) = client.subscribe(uri).await {
            self.followed.remove(&key, who);
            return Err(e.into());
        }
        Ok(())
    }

    /// `who` no longer follows `uri` of `server`; the server is told once no one does.
    pub async fn unfollow_resource(
        &self,
        who: Follower,
        server: &str,
        uri: &str,
    ) -> Result<(), ExplorerError> {
        let key = (server.to_owned(), uri.to_owned());
        if !self.followed.remove(&key, who) {
            return Ok(());
        }
        let client = self.client(server)?;
        client.unsubscribe(uri).await?;
        // Someone who came meanwhile may have been answered before the server heard this.
        if self.followed.followed(&key) {
            client.subscribe(uri).await?;
        }
        Ok(())
    }

    /// Whether `who` follows `uri` of `server`.
    pub fn follows_resource(&self, who: Follower, server: &str, uri: &str) -> bool {
        self.followed.by(&(server.to_owned(), uri.to_owned()), who)
    }

    /// What `who` follows: server and URI.
    pub fn followed_by(&self, who: Follower) -> Vec<(String, String)> {
        self.followed.of(who)
    }

    /// A server that runs again (restarted, or back after a crash) knows nothing of its
    /// earlier session's subscriptions: it is asked again for each resource still followed.
    pub(crate) async fn follow_again(&self, server: &str) {
        let uris = self.followed.on(server);
        if uris.is_empty() {
            return;
        }
        let Ok(client) = self.client(server) else {
            return;
        };
        for uri in uris {
            if let Err(e) = client.subscribe(&uri).await {
                tracing::debug!("{server} was not asked again for updates of {uri}: {e}");
            }
        }
    }

    /// Lets go of everything `who` follows (a session that ended).
    pub async fn unfollow_all(&self, who: Follower) {
        for (server, uri) in self.followed.of(who) {
            if let Err(e) = self.unfollow_resource(who, &server, &uri).await {
                tracing::debug!("{server} was not told to stop updates of {uri}: {e}");
            }
        }
    }
}
