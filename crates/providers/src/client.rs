//! One client per configured provider: it sends [`Request`]s in the provider's protocol
//! and reads the answers, whole or streamed, and lists the provider's models.
//!
//! Redirects are not followed: Anthropic's key travels in `x-api-key`, a header that an
//! HTTP client does not strip when a redirect leads to another host. A redirect is
//! reported with where it leads, for the person to correct the base URL.

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use futures_util::{Stream, StreamExt};
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, LOCATION};
use reqwest::{Method, Url};
use serde_json::Value;

use crate::error::{Error, ProviderError, retry_after};
use crate::model::{Event, ModelInfo, Request, Response};
use crate::openai::OpenAiOptions;
use crate::profile::Profile;
use crate::secret::ApiKey;
use crate::sendable::{sendable, without_refused_parameter};
use crate::sse::SseDecoder;
use crate::{anthropic, collect::Collector, openai, responses};

/// Largest whole answer read (a model list, a non-streamed reply).
const BODY_LIMIT: usize = 32 << 20;
/// Largest error body read.
const ERROR_BODY_LIMIT: usize = 64 << 10;
/// Largest single event of a stream.
const EVENT_LIMIT: usize = 16 << 20;
/// Most pages of Anthropic's model list read.
const MODEL_PAGES: usize = 100;

/// Which wire protocol a provider speaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Protocol {
    /// OpenAI-compatible Chat Completions; the base URL usually ends in `/v1`.
    OpenAi(OpenAiOptions),
    /// Anthropic Messages; the base URL is the host (`https://api.anthropic.com`).
    Anthropic,
    /// OpenAI's Responses API; the base URL ends in `/v1`.
    Responses,
}

/// How to reach a provider. Its `Debug` shows neither the key nor the values of the
/// extra headers (which may hold a proxy's credentials).
#[derive(Clone)]
pub struct ProviderConfig {
    pub protocol: Protocol,
    pub base_url: String,
    /// `None` for servers that need no key (Ollama, llama.cpp, LM Studio).
    pub api_key: Option<ApiKey>,
    /// More headers for every request (OpenRouter's `HTTP-Referer`, Anthropic betas).
    pub extra_headers: Vec<(String, String)>,
    pub connect_timeout: Duration,
    /// The longest silence allowed while waiting for the next piece of an answer
    /// (a model may think a long while before its first token).
    pub read_timeout: Duration,
    /// What the person says of its models, by id, over what their names tell.
    pub profiles: BTreeMap<String, Profile>,
    /// Where what the provider's refusals teach of its models is kept: shared by every
    /// client given the same, so that the next one does not ask as the last was refused.
    pub learned: Learned,
}

/// What a provider's refusals taught of its models, by id; clones share it.
#[derive(Debug, Clone, Default)]
pub struct Learned(Arc<Mutex<BTreeMap<String, Profile>>>);

impl Learned {
    /// Everything taught so far.
    pub fn all(&self) -> BTreeMap<String, Profile> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn of(&self, model: &str) -> Profile {
        let taught = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        taught.get(model).copied().unwrap_or_default()
    }

    fn teach(&self, model: &str, taught: Profile) {
        let mut learned = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let known = learned.entry(model.to_owned()).or_default();
        *known = known.overridden_by(taught);
    }
}

impl fmt::Debug for ProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let header_names: Vec<&str> = self.extra_headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("ProviderConfig")
            .field("protocol", &self.protocol)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key)
            .field("extra_headers", &header_names)
            .field("connect_timeout", &self.connect_timeout)
            .field("read_timeout", &self.read_timeout)
            .field("profiles", &self.profiles)
            .field("learned", &self.learned)
            .finish()
    }
}

impl ProviderConfig {
    pub fn new(protocol: Protocol, base_url: impl Into<String>, api_key: Option<ApiKey>) -> Self {
        Self {
            protocol,
            base_url: base_url.into(),
            api_key,
            extra_headers: Vec::new(),
            connect_timeout: Duration::from_secs(15),
            read_timeout: Duration::from_secs(300),
            profiles: BTreeMap::new(),
            learned: Learned::default(),
        }
    }

    /// An OpenAI-compatible server with the options most of them take.
    pub fn openai_compatible(base_url: impl Into<String>, api_key: Option<ApiKey>) -> Self {
        Self::new(
            Protocol::OpenAi(OpenAiOptions::default()),
            base_url,
            api_key,
        )
    }

    pub fn anthropic(base_url: impl Into<String>, api_key: Option<ApiKey>) -> Self {
        Self::new(Protocol::Anthropic, base_url, api_key)
    }
}

/// A provider's client; cheap to clone (connections are shared).
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    protocol: Protocol,
    /// The base URL without a trailing slash.
    base: String,
    headers: HeaderMap,
    /// Kept to take it out of error messages (see [`Error::redact`]).
    key: Option<ApiKey>,
    profiles: Arc<BTreeMap<String, Profile>>,
    learned: Learned,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("protocol", &self.protocol)
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl Client {
    pub fn new(config: ProviderConfig) -> Result<Self, Error> {
        let url = Url::parse(&config.base_url)
            .map_err(|e| Error::Config(format!("the base URL {:?}: {e}", config.base_url)))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(Error::Config(format!(
                "the base URL {:?} is not http or https",
                config.base_url
            )));
        }
        let mut base = config.base_url.trim_end_matches('/').to_owned();
        if config.protocol == Protocol::Anthropic {
            // `https://api.anthropic.com/v1` is taken as meant.
            if let Some(host) = base.strip_suffix("/v1") {
                base = host.to_owned();
            }
        }
        let headers = headers(&config)?;
        let http = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .read_timeout(config.read_timeout)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("switchboard/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| Error::Config(format!("no HTTP client: {e}")))?;
        Ok(Self {
            http,
            protocol: config.protocol,
            base,
            headers,
            key: config.api_key,
            profiles: Arc::new(config.profiles),
            learned: config.learned,
        })
    }

    pub fn protocol(&self) -> &Protocol {
        &self.protocol
    }

    /// What the model `id` takes: what its name tells, over which what its refusals taught,
    /// over which what the person says.
    pub fn profile(&self, id: &str) -> Profile {
        let said = self.profiles.get(id).copied().unwrap_or_default();
        Profile::of(id)
            .overridden_by(self.learned.of(id))
            .overridden_by(said)
    }

    /// What the provider's refusals taught of its models, by id.
    pub fn learned(&self) -> BTreeMap<String, Profile> {
        self.learned.all()
    }

    /// `request` without the parameter a refusal of it names, for the one retry; what the
    /// refusal taught is kept for the requests that follow.
    fn retried(&self, request: &Request, refused: &Error) -> Option<Request> {
        let (fewer, taught) = without_refused_parameter(request, refused)?;
        if !taught.is_empty() {
            self.learned.teach(&request.model, taught);
        }
        Some(fewer)
    }

    /// Sends `request` and streams the answer as it comes. Dropping the stream stops the
    /// answer (the connection is closed).
    pub async fn stream(&self, request: &Request) -> Result<EventStream, Error> {
        match self.stream_once(request).await {
            Err(error) => match self.retried(request, &error) {
                Some(fewer) => self.stream_once(&fewer).await,
                None => Err(error),
            },
            streaming => streaming,
        }
    }

    async fn stream_once(&self, request: &Request) -> Result<EventStream, Error> {
        let profile = self.profile(&request.model);
        let request = &sendable(request, &profile);
        let (url, body, decoder) = match &self.protocol {
            Protocol::OpenAi(options) => (
                format!("{}/chat/completions", self.base),
                openai::request_body(request, options, true),
                Decoder::OpenAi(openai::StreamDecoder::default()),
            ),
            Protocol::Anthropic => (
                format!("{}/v1/messages", self.base),
                anthropic::request_body(request, true),
                Decoder::Anthropic(anthropic::StreamDecoder::default()),
            ),
            Protocol::Responses => (
                format!("{}/responses", self.base),
                responses::request_body(request, &profile, true),
                Decoder::Responses(responses::StreamDecoder::default()),
            ),
        };
        let response = self.send(Method::POST, &url, Some(&body), true).await?;
        Ok(EventStream::new(response, decoder, self.key.clone()))
    }

    /// Sends `request` and waits for the whole answer, not streamed.
    pub async fn complete(&self, request: &Request) -> Result<Response, Error> {
        let answer = match self.complete_unredacted(request).await {
            Err(error) => match self.retried(request, &error) {
                Some(fewer) => self.complete_unredacted(&fewer).await,
                None => Err(error),
            },
            answer => answer,
        };
        answer.map_err(|e| e.redact(self.secret()))
    }

    async fn complete_unredacted(&self, request: &Request) -> Result<Response, Error> {
        let profile = self.profile(&request.model);
        let request = &sendable(request, &profile);
        match &self.protocol {
            Protocol::OpenAi(options) => {
                let url = format!("{}/chat/completions", self.base);
                let body = openai::request_body(request, options, false);
                let answer = self.send_json(Method::POST, &url, Some(&body)).await?;
                openai::parse_response(&answer)
            }
            Protocol::Anthropic => {
                let url = format!("{}/v1/messages", self.base);
                let body = anthropic::request_body(request, false);
                let answer = self.send_json(Method::POST, &url, Some(&body)).await?;
                anthropic::parse_response(&answer)
            }
            Protocol::Responses => {
                let url = format!("{}/responses", self.base);
                let body = responses::request_body(request, &profile, false);
                let answer = self.send_json(Method::POST, &url, Some(&body)).await?;
                responses::parse_response(&answer)
            }
        }
    }

    /// The models the provider offers, every page of them.
    pub async fn list_models(&self) -> Result<Vec<ModelInfo>, Error> {
        self.list_models_unredacted()
            .await
            .map_err(|e| e.redact(self.secret()))
    }

    fn secret(&self) -> Option<&str> {
        self.key.as_ref().map(ApiKey::expose)
    }

    async fn list_models_unredacted(&self) -> Result<Vec<ModelInfo>, Error> {
        match &self.protocol {
            Protocol::OpenAi(_) | Protocol::Responses => {
                let url = format!("{}/models", self.base);
                let answer = self.send_json(Method::GET, &url, None).await?;
                openai::parse_models(&answer)
            }
            Protocol::Anthropic => {
                let mut models = Vec::new();
                let mut after: Option<String> = None;
                for _ in 0..MODEL_PAGES {
                    let mut url = Url::parse(&format!("{}/v1/models", self.base))
                        .map_err(|e| Error::Config(e.to_string()))?;
                    url.query_pairs_mut().append_pair("limit", "1000");
                    if let Some(after) = &after {
                        url.query_pairs_mut().append_pair("after_id", after);
                    }
                    let answer = self.send_json(Method::GET, url.as_str(), None).await?;
                    let (page, next) = anthropic::parse_models_page(&answer)?;
                    models.extend(page);
                    match next {
                        // A cursor that does not move would never end.
                        Some(next) if after.as_ref() != Some(&next) => after = Some(next),
                        _ => return Ok(models),
                    }
                }
                Ok(models)
            }
        }
    }

    async fn send_json(
        &self,
        method: Method,
        url: &str,
        body: Option<&Value>,
    ) -> Result<Value, Error> {
        let response = self.send(method, url, body, false).await?;
        let bytes = read_body(response, BODY_LIMIT).await?;
        serde_json::from_slice(&bytes)
            .map_err(|e| Error::MalformedResponse(format!("an answer that is not JSON ({e})")))
    }

    /// Sends a request; a response that is not a success becomes its [`Error`].
    async fn send(
        &self,
        method: Method,
        url: &str,
        body: Option<&Value>,
        stream: bool,
    ) -> Result<reqwest::Response, Error> {
        let accept = if stream {
            "text/event-stream"
        } else {
            "application/json"
        };
        let mut builder = self
            .http
            .request(method, url)
            .headers(self.headers.clone())
            .header(ACCEPT, accept);
        if let Some(body) = body {
            builder = builder
                .header(CONTENT_TYPE, "application/json")
                .body(body.to_string());
        }
        let response = builder
            .send()
            .await
            .map_err(|e| Error::from_reqwest(e).redact(self.secret()))?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        if status.is_redirection() {
            let to = response
                .headers()
                .get(LOCATION)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("(nowhere said)")
                .to_owned();
            return Err(Error::Refused {
                status: Some(status.as_u16()),
                kind: None,
                message: format!(
                    "the provider redirects to {to}; give that address as the base URL"
                ),
            });
        }
        Err(error_answer(response).await.redact(self.secret()))
    }
}

/// The error an unsuccessful answer stands for.
async fn error_answer(response: reqwest::Response) -> Error {
    let status = response.status();
    let wait = retry_after(response.headers());
    match read_body(response, ERROR_BODY_LIMIT).await {
        Ok(body) => ProviderError::parse(&body).into_error(status, wait),
        // The status says enough.
        Err(_) => ProviderError::default().into_error(status, wait),
    }
}

fn headers(config: &ProviderConfig) -> Result<HeaderMap, Error> {
    let mut headers = HeaderMap::new();
    let key_value = |value: String| {
        let mut value = HeaderValue::from_str(&value).map_err(|_| {
            Error::Config("the API key has characters a header cannot carry".into())
        })?;
        value.set_sensitive(true);
        Ok::<_, Error>(value)
    };
    match config.protocol {
        Protocol::OpenAi(_) | Protocol::Responses => {
            if let Some(key) = &config.api_key {
                headers.insert(
                    reqwest::header::AUTHORIZATION,
                    key_value(format!("Bearer {}", key.expose()))?,
                );
            }
        }
        Protocol::Anthropic => {
            headers.insert(
                "anthropic-version",
                HeaderValue::from_static(anthropic::API_VERSION),
            );
            if let Some(key) = &config.api_key {
                headers.insert("x-api-key", key_value(key.expose().to_owned())?);
            }
        }
    }
    for (name, value) in &config.extra_headers {
        let name = HeaderName::try_from(name.as_str())
            .map_err(|_| Error::Config(format!("{name:?} is not a header name")))?;
        let mut value = HeaderValue::from_str(value)
            .map_err(|_| Error::Config(format!("the value of header {name} is not valid")))?;
        value.set_sensitive(true);
        headers.insert(name, value);
    }
    Ok(headers)
}

/// Reads a body up to `limit` bytes.
async fn read_body(response: reqwest::Response, limit: usize) -> Result<Vec<u8>, Error> {
    let mut body = Vec::new();
    let mut chunks = response.bytes_stream();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk.map_err(Error::from_reqwest)?;
        if body.len() + chunk.len() > limit {
            return Err(Error::MalformedResponse(format!(
                "an answer of more than {limit} bytes"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

enum Decoder {
    OpenAi(openai::StreamDecoder),
    Anthropic(anthropic::StreamDecoder),
    Responses(responses::StreamDecoder),
}

type Chunks = Pin<Box<dyn Stream<Item = Result<Bytes, reqwest::Error>> + Send>>;

/// Reads a streamed answer: bytes, then SSE events, then [`Event`]s.
struct Reader {
    chunks: Chunks,
    sse: SseDecoder,
    decoder: Decoder,
    ready: VecDeque<Event>,
    done: bool,
    key: Option<ApiKey>,
}

impl Reader {
    async fn next(&mut self) -> Option<Result<Event, Error>> {
        loop {
            if let Some(event) = self.ready.pop_front() {
                return Some(Ok(event));
            }
            if self.done {
                return None;
            }
            match self.step().await {
                Ok(()) => {}
                Err(e) => {
                    self.done = true;
                    self.ready.clear();
                    return Some(Err(e.redact(self.key.as_ref().map(ApiKey::expose))));
                }
            }
        }
    }

    /// Reads the next chunk of the body, and what it completes.
    async fn step(&mut self) -> Result<(), Error> {
        let mut out = Vec::new();
        let (events, ended) = match self.chunks.next().await {
            Some(Ok(chunk)) => (self.sse.push(&chunk), false),
            Some(Err(e)) => return Err(Error::from_reqwest(e)),
            None => (self.sse.finish().map(|e| e.into_iter().collect()), true),
        };
        let events = events.map_err(|e| Error::MalformedStream(e.to_string()))?;
        for event in &events {
            let complete = match &mut self.decoder {
                Decoder::OpenAi(d) => d.event(event, &mut out)?,
                Decoder::Anthropic(d) => d.event(event, &mut out)?,
                Decoder::Responses(d) => d.event(event, &mut out)?,
            };
            if complete {
                // What follows the end is not read: the answer is whole.
                self.done = true;
                break;
            }
        }
        if ended && !self.done {
            match &mut self.decoder {
                Decoder::OpenAi(d) => d.end(&mut out)?,
                Decoder::Anthropic(d) => d.end(&mut out)?,
                Decoder::Responses(d) => d.end(&mut out)?,
            }
            self.done = true;
        }
        self.ready.extend(out);
        Ok(())
    }
}

/// A streamed answer: [`Event`]s, ending with [`Event::Finish`] or an error. After an
/// error nothing more comes.
pub struct EventStream {
    inner: Pin<Box<dyn Stream<Item = Result<Event, Error>> + Send>>,
}

impl EventStream {
    fn new(response: reqwest::Response, decoder: Decoder, key: Option<ApiKey>) -> Self {
        let reader = Reader {
            chunks: Box::pin(response.bytes_stream()),
            sse: SseDecoder::new(EVENT_LIMIT),
            decoder,
            ready: VecDeque::new(),
            done: false,
            key,
        };
        let inner = futures_util::stream::unfold(reader, |mut reader| async move {
            let event = reader.next().await?;
            Some((event, reader))
        });
        Self {
            inner: Box::pin(inner),
        }
    }

    /// The next event; `None` after the last.
    pub async fn next(&mut self) -> Option<Result<Event, Error>> {
        self.inner.next().await
    }

    /// Reads the whole answer.
    pub async fn collect(mut self) -> Result<Response, Error> {
        let mut collector = Collector::default();
        while let Some(event) = self.next().await {
            collector.push(&event?);
        }
        collector.finish().ok_or_else(|| {
            Error::MalformedStream("the stream ended before the model finished".into())
        })
    }
}

impl fmt::Debug for EventStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("EventStream")
    }
}

impl Stream for EventStream {
    type Item = Result<Event, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.inner.as_mut().poll_next(cx)
    }
}
