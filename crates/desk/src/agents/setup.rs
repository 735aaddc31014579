//! Adding Switchboard to an agent's own configuration from the Agents page: the change is
//! planned on the person's home folder and written only as the window showed it (see
//! `switchboard_core::agent_setup`). The window never names the file or its text: a plan it sends
//! back is planned again here and must match, path and text alike.

use parking_lot::Mutex;

use super::{AgentError, Agents};
use switchboard_core::agent_setup::{self as setup, AgentApp, Bridge, Home, SetupError, SetupPlan};

/// Where the apps' files are and how the bridge is started: the person's and this app's,
/// unless set otherwise (tests).
#[derive(Default)]
pub(super) struct Places(Mutex<Option<(Home, Bridge)>>);

impl Agents {
    /// Plans and writes agents' configuration under `home`, with entries that start
    /// `bridge`, instead of the person's home and the bridge beside this app.
    pub fn set_setup_places(&self, home: Home, bridge: Bridge) {
        *self.own.setup_places.0.lock() = Some((home, bridge));
    }

    fn setup_places(&self) -> Result<(Home, Bridge), AgentError> {
        if let Some(set) = self.own.setup_places.0.lock().clone() {
            return Ok(set);
        }
        let home = Home::of_user().ok_or(SetupError::NoHome)?;
        Ok((home, Bridge::of_this_app()))
    }

    /// How an agent starts the bridge to reach this Switchboard.
    fn bridge(&self) -> Bridge {
        self.own
            .setup_places
            .0
            .lock()
            .as_ref()
            .map_or_else(Bridge::of_this_app, |(_, bridge)| bridge.clone())
    }

    /// What an agent's MCP configuration needs to reach Switchboard as `name`: the
    /// `mcpServers` entry most agents read (Claude Code, Claude Desktop, Cursor), the
    /// bridge found beside the running app.
    pub fn snippet(&self, name: &str) -> String {
        setup::bridge_snippet(&self.bridge(), name)
    }

    /// The change that adds Switchboard, as `agent`, to `app`'s configuration; nothing is
    /// written.
    pub async fn setup_plan(&self, app: AgentApp, agent: &str) -> Result<SetupPlan, AgentError> {
        let (agents, agent) = (self.clone(), agent.to_owned());
        off_thread(move || agents.plan_now(app, &agent)).await
    }

    /// Writes the change the window showed: refused when it is not the change planned now
    /// (the file, or what it holds, changed since).
    pub async fn setup_apply(&self, shown: &SetupPlan) -> Result<(), AgentError> {
        let (agents, shown) = (self.clone(), shown.clone());
        off_thread(move || {
            let now = agents.plan_now(shown.app, &shown.agent)?;
            if now != shown {
                return Err(SetupError::Changed {
                    path: now.path.into(),
                }
                .into());
            }
            Ok(setup::apply(&now)?)
        })
        .await
    }

    fn plan_now(&self, app: AgentApp, agent: &str) -> Result<SetupPlan, AgentError> {
        self.configured(agent)?;
        let (home, bridge) = self.setup_places()?;
        Ok(setup::plan(&home, app, &bridge, agent)?)
    }
}

/// Runs `work` on a blocking thread: the apps' files may be slow to read or write (a home
/// folder on the network), and the callers are async tasks that others share.
async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, AgentError> + Send + 'static,
) -> Result<T, AgentError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| SetupError::Interrupted(e.to_string()))?
}
