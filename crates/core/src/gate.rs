//! The gate every tool call passes, whoever asks for it (the person in the explorer, a
//! model, an agent): a standing policy or the person decides, with the exact arguments
//! in view and editable; then the call, checked against the tool's schemas; then an audit
//! record of all of it, which names who asked ([`Origin`]).
//!
//! An agent's reads (resources, prompts, completions: [`Read`]) pass the gate too, decided
//! by the person's rules about the agent's reads of that server, or by the person.
//!
//! What a standing decision allows an agent without asking is paced ([`pace`]): beyond
//! the limit per minute and server, it is refused, and the first refusal of a run recorded.
//!
//! A call the person starts themselves is their decision already: it runs at once and is
//! recorded as decided by them. Two things still stand in its way: a denial they made
//! (it is theirs too, and the call stops saying which rule did it), and, if the host's
//! `confirmOwnDestructiveCalls` setting is on, a tool that may destroy something, which
//! asks as any other call would (a rule allowing it answers for them).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use parking_lot::Mutex;
use serde_json::{Map, Value};
use switchboard_mcp::client::skills::SkillError;
use switchboard_mcp::client::{Client, ClientError};
use switchboard_mcp::connection::RequestOptions;
use switchboard_mcp::types::{CallToolResult, Tool};
use tokio_util::sync::CancellationToken;

use crate::approvals::{Answer, AnswerError, Broker, Question, Remember, Settled};
use crate::audit::{AuditLog, Kind, Record};
use crate::catalog::Catalog;
use crate::config::{RuleStore, ServerConfig, ToolRule};
use crate::decisions::{DecidedBy, Given, Origin, Outcome};
use crate::masking;
use crate::pins::{Changed, ToolDefinition};
use crate::policy::{Decision, Now, Policies, RuleOf, Scope, Verdict};
use crate::reads::Read;

pub mod pace;

use pace::{Pace, TooFrequent};

#[derive(Debug, thiserror::Error)]
pub enum CallError {
    #[error("the call to {tool} was denied ({decided_by})")]
    Denied { tool: String, decided_by: DecidedBy },
    #[error("reading {what} was denied ({decided_by})")]
    ReadDenied { what: String, decided_by: DecidedBy },
    #[error("the call to {tool} was cancelled before it was allowed")]
    Cancelled { tool: String },
    #[error(transparent)]
    TooFrequent(#[from] TooFrequent),
    #[error(transparent)]
    Approval(#[from] AnswerError),
    #[error(transparent)]
    Client(#[from] ClientError),
    /// A skill that failed its manifest's checks (SEP-2640).
    #[error(transparent)]
    Skill(#[from] switchboard_mcp::client::skills::SkillError),
}

/// A tool call's decision, as the audit trail records it.
struct Decided {
    allow: bool,
    /// The arguments to call with (the person may have edited them).
    arguments: Map<String, Value>,
    decision: &'static str,
    decided_by: DecidedBy,
    /// How it was given; `None` when no one decided (cancelled, unanswered).
    given: Option<Given>,
}

impl Decided {
    /// A decision someone made: a rule, or the person.
    fn made(
        allow: bool,
        arguments: Map<String, Value>,
        decided_by: DecidedBy,
        given: Given,
    ) -> Self {
        Self {
            allow,
            arguments,
            decision: if allow { "allowed" } else { "denied" },
            decided_by,
            given: Some(given),
        }
    }

    /// Allowed by a standing decision, refused by the pace of them.
    fn too_frequent(arguments: Map<String, Value>, over: &TooFrequent) -> Self {
        Self {
            allow: false,
            arguments,
            decision: "refused",
            decided_by: over.decided_by(),
            given: None,
        }
    }
}

/// A call the gate allowed: only [`Gate::decide`] makes one, and only [`Gate::run`]
/// takes it.
#[derive(Debug)]
pub struct Allowed {
    arguments: Map<String, Value>,
    decided_by: DecidedBy,
    /// The audit record of the decision, which the outcome completes.
    record: Option<i64>,
}

impl Allowed {
    /// The arguments the call goes with, as the person may have edited them.
    pub fn arguments(&self) -> &Map<String, Value> {
        &self.arguments
    }

    /// Who allowed it: the person, or the rule that did.
    pub fn decided_by(&self) -> &DecidedBy {
        &self.decided_by
    }
}

/// The server a call goes to, as the gate weighs it.
pub struct Callee<'a> {
    pub name: &'a str,
    /// How it is launched or reached now (`ServerConfig::identity`): allowances are pinned to it.
    pub identity: String,
    /// The person's word for it, which alone lets its annotations count.
    pub trusted: bool,
}

impl<'a> Callee<'a> {
    pub fn of(name: &'a str, config: &ServerConfig) -> Self {
        Self {
            name,
            identity: config.identity(),
            trusted: config.is_trusted(),
        }
    }
}

#[derive(Clone)]
pub struct Gate {
    broker: Broker,
    policies: Arc<Mutex<Policies>>,
    audit: Arc<AuditLog>,
    /// Where "always" decisions are kept (the configuration file), if anywhere.
    rules: Option<Arc<dyn RuleStore>>,
    /// The host's `confirmOwnDestructiveCalls` setting as it is now: whether the person's
    /// own call to a tool that may destroy something asks them first.
    confirm_own_destructive: Arc<AtomicBool>,
    /// The running servers' offers: an allowance of a whole server is pinned to the tools
    /// it lists when the person gives it.
    catalog: Catalog,
    /// What standing decisions allowed each agent lately, for their limit per minute.
    pace: Arc<Pace>,
}

/// How a decision the person gave was given, by how far they said it reaches.
fn given(remember: Remember) -> Given {
    match remember {
        Remember::Once => Given::Once,
        Remember::ToolForSession | Remember::ServerForSession => Given::Session,
        Remember::ToolAlways | Remember::ServerAlways => Given::Always,
    }
}

/// Whether a tool may destroy something, by its own claims read with the spec's defaults:
/// a tool that does not say it only reads, nor that it destroys nothing, may.
pub fn may_destroy(tool: &Tool) -> bool {
    let claims = tool.annotations.as_ref();
    let read_only = claims.and_then(|a| a.read_only_hint).unwrap_or(false);
    let destructive = claims.and_then(|a| a.destructive_hint).unwrap_or(true);
    !read_only && destructive
}

impl Gate {
    /// The gate of a host with these settings (its standing rules, its pace, whether the
    /// person's own destructive calls ask first), asking through `broker`, recording in
    /// `audit`, pinning whole-server allowances to what `catalog` lists; "always" decisions
    /// are kept in `rules` (the configuration file), if given.
    pub fn new(
        broker: Broker,
        audit: Arc<AuditLog>,
        catalog: Catalog,
        settings: &crate::config::HostSettings,
        rules: Option<Arc<dyn RuleStore>>,
    ) -> Self {
        Self {
            broker,
            policies: Arc::new(Mutex::new(Policies::new(settings.tool_rules.clone()))),
            audit,
            rules,
            confirm_own_destructive: Arc::new(settings.confirm_own_destructive_calls.into()),
            catalog,
            pace: Arc::new(Pace::new(settings.agent_calls_per_minute)),
        }
    }

    /// The questions to the person, and their answers.
    pub fn broker(&self) -> &Broker {
        &self.broker
    }

    /// The audit trail every decision and call is recorded in.
    pub fn audit(&self) -> &Arc<AuditLog> {
        &self.audit
    }

    /// Every rule the person made, with how long it holds.
    pub fn rules(&self) -> Vec<(ToolRule, Scope)> {
        self.policies()
            .all()
            .map(|(rule, scope)| (rule.clone(), scope))
            .collect()
    }

    /// Takes up the host's settings as they are now (read or written again).
    pub fn follow_settings(&self, settings: &crate::config::HostSettings) {
        self.confirm_own_destructive
            .store(settings.confirm_own_destructive_calls, Ordering::Relaxed);
        self.pace.set_per_minute(settings.agent_calls_per_minute);
    }

    /// Whether a standing decision's allowance of `origin`'s call or read of `server`
    /// stands within the pace of them (only agents' are paced).
    fn paced(&self, origin: &Origin, server: &str, rule: &Decision) -> Result<(), TooFrequent> {
        match origin.agent() {
            Some(agent) if rule.allow => self.pace.admit(agent, server),
            _ => Ok(()),
        }
    }

    fn policies(&self) -> parking_lot::MutexGuard<'_, Policies> {
        self.policies.lock()
    }

    /// Calls `tool` of `server` for `origin` once it is allowed. The options apply to the
    /// call itself, except its cancel switch, which also withdraws the question from the
    /// person.
    pub async fn call(
        &self,
        origin: &Origin,
        client: &Client,
        server: &Callee<'_>,
        tool: &Tool,
        arguments: Map<String, Value>,
        options: RequestOptions,
    ) -> Result<CallToolResult, CallError> {
        let allowed = self
            .decide(origin, server, tool, arguments, options.cancel.as_ref())
            .await?;
        self.run(client, tool, allowed, options).await
    }

    /// The first half of [`Self::call`]: a standing policy or the person decides, and the
    /// decision is recorded. An allowed call comes back with the arguments to call with
    /// (the person may have edited them), for [`Self::run`]; `cancel` withdraws the
    /// question from the person.
    pub async fn decide(
        &self,
        origin: &Origin,
        server: &Callee<'_>,
        tool: &Tool,
        arguments: Map<String, Value>,
        cancel: Option<&CancellationToken>,
    ) -> Result<Allowed, CallError> {
        let definition = ToolDefinition::of(tool);
        let now = Now {
            agent: origin.agent(),
            server: server.name,
            identity: &server.identity,
            definition: &definition,
        };
        let (verdict, pinned) = {
            let mut policies = self.policies();
            let pinned = policies.pin_whole_server_rules(&now, || self.listed(&now));
            let verdict = policies.decide(&now, tool.annotations.as_ref(), server.trusted);
            (verdict, pinned)
        };
        if pinned {
            let listed = self.listed(&now);
            let (agent, server, identity, definition) = (
                now.agent.map(ToOwned::to_owned),
                now.server.to_owned(),
                now.identity.to_owned(),
                now.definition.clone(),
            );
            self.write_rules(move |standing| {
                let now = Now {
                    agent: agent.as_deref(),
                    server: &server,
                    identity: &identity,
                    definition: &definition,
                };
                standing.pin_whole_server_rules(&now, || listed);
            })
            .await;
        }
        let verdict = match origin {
            Origin::Person => self.own(verdict, tool),
            Origin::Model { .. } | Origin::Agent { .. } | Origin::App { .. } => verdict,
        };
        let decided = match verdict {
            Verdict::Decided(rule) => {
                if let Err(over) = self.paced(origin, server.name, &rule) {
                    if over.first {
                        let refused = Decided::too_frequent(arguments, &over);
                        self.record(origin, server.name, tool, &refused).await;
                    }
                    return Err(over.into());
                }
                Decided::made(rule.allow, arguments, rule.decided_by, rule.given)
            }
            Verdict::Ask(changed) => {
                let cancel = cancel.cloned().unwrap_or_default();
                let asked = tokio::select! {
                    // An answer given as the caller gave up still counts: what the person
                    // said to remember is remembered.
                    biased;
                    asked = self.ask(origin, &now, tool, arguments.clone(), changed) => Some(asked?),
                    // Dropping the question takes it off the person's list.
                    () = cancel.cancelled() => None,
                };
                match asked {
                    Some((decided, always)) => {
                        // Kept in the file whether or not the caller still waits.
                        if let Some(rule) = always {
                            self.keep_in_file(rule).await;
                        }
                        decided
                    }
                    None => {
                        let cancelled = Decided {
                            allow: false,
                            arguments,
                            decision: "cancelled",
                            decided_by: DecidedBy::Caller,
                            given: None,
                        };
                        self.record(origin, server.name, tool, &cancelled).await;
                        return Err(CallError::Cancelled {
                            tool: tool.name.clone(),
                        });
                    }
                }
            }
        };
        let record = self.record(origin, server.name, tool, &decided).await;
        let Decided {
            allow,
            arguments,
            decided_by,
            ..
        } = decided;
        if !allow {
            return Err(CallError::Denied {
                tool: tool.name.clone(),
                decided_by,
            });
        }
        Ok(Allowed {
            arguments,
            decided_by,
            record,
        })
    }

    /// Reads `read` of `server` for `origin` once it is allowed (by a rule about the
    /// origin's reads of that server, or by the person), through `reading`; the decision and
    /// the outcome are recorded. Dropping the future withdraws the question.
    pub async fn read<T>(
        &self,
        origin: &Origin,
        server: &Callee<'_>,
        read: Read,
        reading: impl Future<Output = Result<T, ClientError>>,
    ) -> Result<T, CallError> {
        let verdict = self
            .policies()
            .decide_reads(origin.agent(), server.name, &server.identity);
        let mut over = None;
        let decided = match verdict {
            Verdict::Decided(rule) => match self.paced(origin, server.name, &rule) {
                Ok(()) => Decided::made(rule.allow, Map::new(), rule.decided_by, rule.given),
                Err(refused) if !refused.first => return Err(refused.into()),
                Err(refused) => {
                    let decided = Decided::too_frequent(Map::new(), &refused);
                    over = Some(refused);
                    decided
                }
            },
            Verdict::Ask(changed) => self.ask_read(origin, server, &read, changed).await?,
        };
        self.run_read(origin, server, read, decided, over, reading)
            .await
    }

    /// A model's use of a skill (`read` is a [`Read::Skill`]): let through without asking
    /// when the person allowed the skill as it is now (`pinned`), else put to them; no
    /// standing rule about reads decides it. Comes back with whether the person allowed
    /// it for good, the skill then to be pinned as it is.
    pub async fn use_skill<T>(
        &self,
        origin: &Origin,
        server: &Callee<'_>,
        read: Read,
        pinned: bool,
        loading: impl Future<Output = Result<T, SkillError>>,
    ) -> Result<(T, bool), CallError> {
        let (decided, pin) = if pinned {
            let by = DecidedBy::Remembered;
            (Decided::made(true, Map::new(), by, Given::Always), false)
        } else {
            let question = Question::Read {
                read: read.clone(),
                changed: None,
                asked_by: origin.clone(),
            };
            let Settled { answer, by } = self.broker.ask(server.name, question).await?;
            let (allow, remember) = match answer {
                Answer::Read { allow, remember } => (allow, remember),
                _ => (false, Remember::Once),
            };
            match by.unanswered() {
                Some(decision) => (
                    Decided {
                        allow: false,
                        arguments: Map::new(),
                        decision,
                        decided_by: by.into(),
                        given: None,
                    },
                    false,
                ),
                None => (
                    Decided::made(allow, Map::new(), by.into(), given(remember)),
                    allow && remember != Remember::Once,
                ),
            }
        };
        let used = self
            .run_read(origin, server, read, decided, None, loading)
            .await?;
        Ok((used, pin))
    }

    /// Records a read as decided, then, if it was allowed, runs it and records how it went.
    async fn run_read<T, E>(
        &self,
        origin: &Origin,
        server: &Callee<'_>,
        read: Read,
        decided: Decided,
        over: Option<TooFrequent>,
        reading: impl Future<Output = Result<T, E>>,
    ) -> Result<T, CallError>
    where
        E: std::fmt::Display,
        CallError: From<E>,
    {
        let record = Record {
            kind: Kind::Read,
            server: server.name.to_owned(),
            subject: read.subject().to_owned(),
            detail: masking::json(read.detail()),
            decision: decided.decision.to_owned(),
            decided_by: decided.decided_by.clone(),
            outcome: Outcome::Unknown,
            duration_ms: None,
        };
        let record = self
            .audit
            .record_call(record, origin.describe(), decided.given)
            .await
            .map_err(|e| tracing::error!("{e}"))
            .ok();
        if let Some(over) = over {
            return Err(over.into());
        }
        if !decided.allow {
            return Err(CallError::ReadDenied {
                what: read.subject().to_owned(),
                decided_by: decided.decided_by,
            });
        }
        let started = Instant::now();
        let result = reading.await;
        if let Some(id) = record {
            let outcome = match &result {
                Ok(_) => Outcome::Succeeded,
                Err(e) => Outcome::Failed(e.to_string()),
            };
            self.audit
                .finish(id, outcome, started.elapsed().as_millis() as u64);
        }
        Ok(result?)
    }

    /// Asks the person whether `origin` may read `read`, and remembers the decision for
    /// its reads of the server as far as they said, pinned to the server as it is now.
    async fn ask_read(
        &self,
        origin: &Origin,
        server: &Callee<'_>,
        read: &Read,
        changed: Option<Box<Changed>>,
    ) -> Result<Decided, CallError> {
        let question = Question::Read {
            read: read.clone(),
            changed,
            asked_by: origin.clone(),
        };
        let Settled { answer, by } = self.broker.ask(server.name, question).await?;
        let (allow, remember) = match answer {
            Answer::Read { allow, remember } => (allow, remember),
            _ => (false, Remember::Once),
        };
        if let Some(decision) = by.unanswered() {
            return Ok(Decided {
                allow: false,
                arguments: Map::new(),
                decision,
                decided_by: by.into(),
                given: None,
            });
        }
        let scope = match remember {
            Remember::Once => None,
            Remember::ToolForSession | Remember::ServerForSession => Some(Scope::Session),
            Remember::ToolAlways | Remember::ServerAlways => Some(Scope::Always),
        };
        if let Some(scope) = scope {
            let rule = ToolRule {
                server: server.name.to_owned(),
                tool: None,
                allow,
                agent: origin.agent().map(ToOwned::to_owned),
                identity: server.identity.clone(),
                definition: None,
                since_ms: crate::clock::now_ms() as u64,
                reads: true,
                definitions: Vec::new(),
            };
            if let Some(rule) = self.remember(rule, scope) {
                self.keep_in_file(rule).await;
            }
        }
        Ok(Decided::made(allow, Map::new(), by.into(), given(remember)))
    }

    /// What the policies' verdict comes to for a call the person made themselves: theirs
    /// to make, unless a denial stands or the tool is one they asked to confirm.
    fn own(&self, verdict: Verdict, tool: &Tool) -> Verdict {
        let confirm = self.confirm_own_destructive.load(Ordering::Relaxed) && may_destroy(tool);
        match verdict {
            Verdict::Decided(Decision { allow: false, .. }) => verdict,
            Verdict::Decided(_) | Verdict::Ask(_) if !confirm => Verdict::Decided(Decision {
                allow: true,
                decided_by: DecidedBy::OwnCall,
                given: Given::Own,
            }),
            verdict => verdict,
        }
    }

    /// The second half of [`Self::call`]: the allowed call, checked against the tool's
    /// schemas (arguments that do not fit are not sent), and its outcome recorded.
    pub async fn run(
        &self,
        client: &Client,
        tool: &Tool,
        allowed: Allowed,
        options: RequestOptions,
    ) -> Result<CallToolResult, CallError> {
        let started = Instant::now();
        let result = client
            .call_tool_checked(tool, Some(allowed.arguments), options)
            .await;
        let outcome = match &result {
            Ok(r) if r.is_error == Some(true) => Outcome::ToolError,
            Ok(_) => Outcome::Succeeded,
            Err(e) => Outcome::Failed(e.to_string()),
        };
        if let Some(id) = allowed.record {
            // Not waited for: the result goes back while the outcome is written.
            self.audit
                .finish(id, outcome, started.elapsed().as_millis() as u64);
        }
        Ok(result?)
    }

    /// Records a decision on a call; returns the record's id, for its outcome, unless the
    /// audit log failed (which is logged and does not stop the call).
    async fn record(
        &self,
        origin: &Origin,
        server: &str,
        tool: &Tool,
        decided: &Decided,
    ) -> Option<i64> {
        let record = Record {
            kind: Kind::ToolCall,
            server: server.to_owned(),
            subject: tool.name.clone(),
            // Arguments are kept as called, but for the secrets web addresses carry.
            detail: masking::json(Value::Object(decided.arguments.clone())),
            decision: decided.decision.to_owned(),
            decided_by: decided.decided_by.clone(),
            outcome: Outcome::Unknown,
            duration_ms: None,
        };
        self.audit
            .record_call(record, origin.describe(), decided.given)
            .await
            .map_err(|e| tracing::error!("{e}"))
            .ok()
    }

    /// Asks the person, and remembers the decision as far as they said, pinned to the
    /// server and the tool as they are now; with the rule to keep in the file when they said
    /// "always" (kept by the caller, once no cancellation can drop the write). A question
    /// no one answered denies the call, and says so.
    async fn ask(
        &self,
        origin: &Origin,
        now: &Now<'_>,
        tool: &Tool,
        arguments: Map<String, Value>,
        changed: Option<Box<Changed>>,
    ) -> Result<(Decided, Option<ToolRule>), CallError> {
        let question = Question::ToolCall {
            tool: tool.name.clone(),
            arguments,
            annotations: tool.annotations.clone().map(Box::new),
            changed,
            asked_by: origin.clone(),
        };
        let Settled { answer, by } = self.broker.ask(now.server, question).await?;
        // The broker only takes answers of the question's kind; anything else denies.
        let Answer::ToolCall {
            allow,
            arguments,
            remember,
        } = answer
        else {
            return Ok((
                Decided {
                    allow: false,
                    arguments: Map::new(),
                    decision: "denied",
                    decided_by: DecidedBy::WrongAnswer,
                    given: None,
                },
                None,
            ));
        };
        if let Some(decision) = by.unanswered() {
            return Ok((
                Decided {
                    allow: false,
                    arguments,
                    decision,
                    decided_by: by.into(),
                    given: None,
                },
                None,
            ));
        }
        let person = Decided::made(allow, arguments, by.into(), given(remember));
        let rule = |whole_server: bool| ToolRule {
            server: now.server.to_owned(),
            tool: (!whole_server).then(|| tool.name.clone()),
            allow,
            agent: now.agent.map(ToOwned::to_owned),
            identity: now.identity.to_owned(),
            definition: (!whole_server).then(|| now.definition.clone()),
            definitions: if whole_server {
                self.listed(now)
            } else {
                Vec::new()
            },
            since_ms: crate::clock::now_ms() as u64,
            reads: false,
        };
        let (rule, scope) = match remember {
            Remember::Once => return Ok((person, None)),
            Remember::ToolForSession => (rule(false), Scope::Session),
            Remember::ServerForSession => (rule(true), Scope::Session),
            Remember::ToolAlways => (rule(false), Scope::Always),
            Remember::ServerAlways => (rule(true), Scope::Always),
        };
        let always = self.remember(rule, scope);
        Ok((person, always))
    }

    /// The tools `now`'s server lists now, each as it reads (the one asked about among
    /// them): what an allowance of the whole server is pinned to.
    fn listed(&self, now: &Now<'_>) -> Vec<ToolDefinition> {
        let mut listed: Vec<ToolDefinition> = self
            .catalog
            .offer(now.server)
            .map(|offer| offer.tools.iter().map(ToolDefinition::of).collect())
            .unwrap_or_default();
        listed.retain(|d| d.name != now.definition.name);
        listed.push(now.definition.clone());
        listed
    }

    /// Remembers a rule the person gave, for `scope`; the rule to keep in the file too
    /// ([`Self::keep_in_file`]) if always.
    fn remember(&self, rule: ToolRule, scope: Scope) -> Option<ToolRule> {
        self.policies().remember(rule.clone(), scope);
        (scope == Scope::Always).then_some(rule)
    }

    /// Keeps a rule the person gave "always" in the file.
    async fn keep_in_file(&self, rule: ToolRule) {
        self.write_rules(move |standing| standing.remember(rule, Scope::Always))
            .await;
    }

    /// Forgets the decisions about `what` of a server given for `agent`'s calls (`None`: the
    /// person's own), in the file too.
    pub async fn revoke(&self, server: &str, what: &RuleOf, agent: Option<&str>) {
        self.policies().revoke(server, what, agent);
        let (server, what, agent) = (
            server.to_owned(),
            what.clone(),
            agent.map(ToOwned::to_owned),
        );
        self.write_rules(move |standing| standing.revoke(&server, &what, agent.as_deref()))
            .await;
    }

    /// Forgets every decision about an agent's calls (it was removed), in the file too.
    pub async fn forget_agent(&self, agent: &str) {
        self.policies().forget_agent(agent);
        let agent = agent.to_owned();
        self.write_rules(move |standing| standing.forget_agent(&agent))
            .await;
    }

    /// Whether these are the standing rules the gate holds.
    pub fn holds_rules(&self, always: &[ToolRule]) -> bool {
        self.policies().always() == always
    }

    /// Takes the standing rules the configuration file holds now (changed by hand).
    pub fn reload_rules(&self, always: Vec<ToolRule>) {
        self.policies().set_always(always);
    }

    /// Forgets every decision about a server (removed, or renamed), in the file too.
    pub async fn forget_server(&self, server: &str) {
        self.policies().forget_server(server);
        let server = server.to_owned();
        self.write_rules(move |standing| standing.forget_server(&server))
            .await;
    }

    /// Makes the same change to the standing rules the store holds now, so that rules
    /// written there meanwhile (by hand, or by another answer) are kept, and the rest of
    /// the file with them.
    async fn write_rules(&self, change: impl FnOnce(&mut Policies) + Send + 'static) {
        let Some(rules) = &self.rules else {
            return;
        };
        let written = rules
            .change(Box::new(move |kept| {
                let mut standing = Policies::new(std::mem::take(kept));
                change(&mut standing);
                *kept = standing.always().to_vec();
            }))
            .await;
        if let Err(e) = written {
            tracing::error!("the decision holds for this session only: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use switchboard_mcp::types::ToolAnnotations;

    fn claiming(read_only: Option<bool>, destructive: Option<bool>) -> Tool {
        let mut tool: Tool = serde_json::from_value(serde_json::json!({
            "name": "t",
            "inputSchema": {"type": "object"}
        }))
        .expect("a tool");
        tool.annotations =
            (read_only.is_some() || destructive.is_some()).then(|| ToolAnnotations {
                read_only_hint: read_only,
                destructive_hint: destructive,
                ..ToolAnnotations::default()
            });
        tool
    }

    #[test]
    fn a_tool_may_destroy_unless_it_claims_to_only_read_or_to_destroy_nothing() {
        assert!(
            may_destroy(&claiming(None, None)),
            "no claims: the spec's defaults"
        );
        assert!(may_destroy(&claiming(Some(false), None)));
        assert!(may_destroy(&claiming(Some(false), Some(true))));
        assert!(!may_destroy(&claiming(Some(true), None)));
        assert!(!may_destroy(&claiming(Some(false), Some(false))));
        assert!(!may_destroy(&claiming(None, Some(false))));
    }
}
