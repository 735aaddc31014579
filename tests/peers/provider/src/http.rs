//! The HTTP side, bare hyper: routes, the record of requests, and answers written out,
//! streams frame by frame (or in pieces of a set size) as they would leave a real
//! provider.

use std::convert::Infallible;
use std::io::{self, Write as _};
use std::net::Ipv4Addr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use bytes::Bytes;
use http_body_util::channel::Channel;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE};
use hyper::server::conn::http1;
use hyper::{HeaderMap, Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Map, Value, json};
use tokio::net::TcpListener;

use crate::answer::Answer;
use crate::dialect::Dialect;
use crate::script::{Failure, Script, Turn};
use crate::{anthropic, openai, reasoning, responses};

type Reply = Response<BoxBody<Bytes, io::Error>>;

pub async fn serve(script: Script, port: u16) -> io::Result<()> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await?;
    {
        let mut stdout = io::stdout().lock();
        writeln!(stdout, "listening on http://{}", listener.local_addr()?)?;
        stdout.flush()?;
    }
    let server = Arc::new(Server {
        script,
        next_turn: AtomicUsize::new(0),
        requests: Mutex::new(Vec::new()),
    });
    loop {
        let (stream, _) = listener.accept().await?;
        let _ = stream.set_nodelay(true);
        let server = server.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                let server = server.clone();
                async move { Ok::<_, Infallible>(server.route(request).await) }
            });
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

struct Server {
    script: Script,
    next_turn: AtomicUsize,
    /// Every request to the protocols' paths, in order.
    requests: Mutex<Vec<Value>>,
}

/// The protocol a request speaks.
#[derive(Clone, Copy)]
enum Api {
    /// OpenAI's Chat Completions.
    OpenAi,
    /// OpenAI's Responses.
    Responses,
    Anthropic,
}

/// Each step of an answer, in the protocol's words.
impl Api {
    /// The 401 for a request without the key `expected`.
    fn check_key(self, expected: Option<&str>, received: &Received) -> Option<Answer> {
        let authorization = received.header("authorization");
        match self {
            Self::OpenAi | Self::Responses => openai::check_key(expected, authorization),
            Self::Anthropic => anthropic::check_key(
                expected,
                received.header("x-api-key"),
                authorization,
                received.number,
            ),
        }
    }

    fn unreadable(self) -> Answer {
        match self {
            Self::OpenAi | Self::Responses => openai::unreadable(),
            Self::Anthropic => anthropic::unreadable(),
        }
    }

    fn validate(self, received: &Received, body: &Value) -> Result<(), Answer> {
        match self {
            Self::OpenAi => openai::validate(body),
            Self::Responses => responses::validate(body),
            Self::Anthropic => {
                anthropic::validate(received.header("anthropic-version"), body, received.number)
            }
        }
    }

    /// The refusal of a reasoning model's thinking sent back wrong or not at all.
    fn check_reasoning(self, script: &Script, received: &Received, body: &Value) -> Option<Answer> {
        match self {
            Self::OpenAi => reasoning::deepseek_refusal(script, body).map(openai::bad_request),
            Self::Responses => {
                reasoning::responses_refusal(script, body).map(responses::bad_request)
            }
            Self::Anthropic => reasoning::anthropic_refusal(script, body)
                .map(|message| anthropic::bad_request(&message, received.number)),
        }
    }

    /// Whether the request carries an image.
    fn carries_image(self, body: &Value) -> bool {
        let kind = match self {
            Self::Responses => "input_image",
            Self::OpenAi => "image_url",
            Self::Anthropic => "image",
        };
        has_part(body, kind)
    }

    /// The refusal of an image by a model that reads none.
    fn refuse_images(self, received: &Received) -> Answer {
        match self {
            Self::OpenAi => openai::bad_request(openai::NO_IMAGES.into()),
            Self::Responses => responses::bad_request(openai::NO_IMAGES.into()),
            Self::Anthropic => anthropic::bad_request(
                "messages.0.content: this model does not support image input",
                received.number,
            ),
        }
    }

    fn failure(self, failure: &Failure, received: &Received) -> Answer {
        let failure = &failure.echoing(received.key());
        match self {
            Self::OpenAi => openai::failure(failure, "messages"),
            Self::Responses => openai::failure(failure, "input"),
            Self::Anthropic => anthropic::failure(failure, received.number),
        }
    }

    fn answer(self, turn: &Turn, body: &Value, turn_number: usize, dialect: Dialect) -> Answer {
        match self {
            Self::OpenAi => openai::answer(turn, body, turn_number, dialect),
            Self::Responses => responses::answer(turn, body, turn_number),
            Self::Anthropic => anthropic::answer(turn, body, turn_number),
        }
    }

    fn no_turn_left(self) -> Answer {
        match self {
            Self::OpenAi | Self::Responses => openai::no_turn_left(),
            Self::Anthropic => anthropic::no_turn_left(),
        }
    }

    fn models(self, script: &Script, query: &str) -> Answer {
        match self {
            Self::OpenAi | Self::Responses => openai::models(&script.models),
            Self::Anthropic => anthropic::models(&script.models, script.models_page_size, query),
        }
    }
}

/// A request as received.
struct Received {
    method: Method,
    path: String,
    query: String,
    headers: HeaderMap,
    /// The body as JSON; `None` if it was not.
    body: Option<Value>,
    /// The request's number, from 1.
    number: usize,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The API key the request carried, in either protocol's header.
    fn key(&self) -> Option<&str> {
        self.header("x-api-key").or_else(|| {
            self.header("authorization")
                .and_then(|a| a.strip_prefix("Bearer "))
        })
    }

    /// The JSON kept for the test to read.
    fn record(&self, raw: &[u8]) -> Value {
        let mut headers = Map::new();
        for (name, value) in &self.headers {
            let value = String::from_utf8_lossy(value.as_bytes()).into_owned();
            headers.insert(name.as_str().to_owned(), json!(value));
        }
        json!({
            "method": self.method.as_str(),
            "path": self.path,
            "query": self.query,
            "headers": headers,
            "body": self.body.clone().unwrap_or_else(|| json!(String::from_utf8_lossy(raw))),
        })
    }
}

impl Server {
    async fn route(&self, request: Request<Incoming>) -> Reply {
        let (parts, body) = request.into_parts();
        let raw = match body.collect().await {
            Ok(body) => body.to_bytes(),
            Err(_) => return text(StatusCode::BAD_REQUEST, "the body could not be read"),
        };
        let path = parts.uri.path().to_owned();
        if path == "/_stand-in/requests" {
            let requests = self.requests().clone();
            return reply(Answer::json(200, Value::Array(requests)));
        }
        let received = Received {
            number: self.requests().len() + 1,
            method: parts.method,
            path,
            query: parts.uri.query().unwrap_or("").to_owned(),
            headers: parts.headers,
            body: serde_json::from_slice(&raw).ok(),
        };
        self.requests().push(received.record(&raw));
        let answer = match (&received.method, received.path.as_str()) {
            (&Method::POST, "/v1/chat/completions") => self.chat(Api::OpenAi, &received),
            (&Method::POST, "/v1/responses") => self.chat(Api::Responses, &received),
            (&Method::POST, "/v1/messages") => self.chat(Api::Anthropic, &received),
            (&Method::GET, "/v1/models") if received.header("anthropic-version").is_some() => {
                self.models(Api::Anthropic, &received)
            }
            (&Method::GET, "/v1/models") => self.models(Api::OpenAi, &received),
            _ => return text(StatusCode::NOT_FOUND, "no such endpoint"),
        };
        reply(answer)
    }

    /// The next scripted turn, as `api` answers it: once the key, the body and what it
    /// asks are as the API requires.
    fn chat(&self, api: Api, received: &Received) -> Answer {
        if let Some(refused) = api.check_key(self.script.api_key.as_deref(), received) {
            return refused;
        }
        let Some(body) = &received.body else {
            return api.unreadable();
        };
        if let Err(refused) = api.validate(received, body) {
            return refused;
        }
        if let Some(refused) = api.check_reasoning(&self.script, received, body) {
            return refused;
        }
        if self.script.text_only && api.carries_image(body) {
            return api.refuse_images(received);
        }
        match self.take_turn() {
            Some((n, turn)) => match &turn.error {
                Some(failure) => api.failure(failure, received),
                None => api.answer(turn, body, n, self.script.dialect),
            },
            None => api.no_turn_left(),
        }
    }

    /// The script's models as `api` lists them, or its error for them.
    fn models(&self, api: Api, received: &Received) -> Answer {
        api.check_key(self.script.api_key.as_deref(), received)
            .unwrap_or_else(|| match &self.script.models_error {
                Some(failure) => api.failure(failure, received),
                None => api.models(&self.script, &received.query),
            })
    }

    /// The next scripted turn and its number (from 1).
    fn take_turn(&self) -> Option<(usize, &Turn)> {
        let at = self.next_turn.fetch_add(1, Ordering::Relaxed);
        self.script.turns.get(at).map(|turn| (at + 1, turn))
    }

    fn requests(&self) -> std::sync::MutexGuard<'_, Vec<Value>> {
        self.requests.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn reply(answer: Answer) -> Reply {
    match answer {
        Answer::Json {
            status,
            headers,
            body,
        } => {
            let mut builder = Response::builder()
                .status(status)
                .header(CONTENT_TYPE, "application/json");
            for (name, value) in headers {
                builder = builder.header(name, value);
            }
            built(builder.body(full(Bytes::from(body.to_string()))))
        }
        Answer::Events {
            frames,
            chunk_bytes,
            stall,
        } => {
            let (mut sender, body) = Channel::<Bytes, io::Error>::new(1);
            let pieces: Vec<Bytes> = match chunk_bytes {
                Some(size) => frames
                    .concat()
                    .into_bytes()
                    .chunks(size.max(1))
                    .map(Bytes::copy_from_slice)
                    .collect(),
                None => frames.into_iter().map(Bytes::from).collect(),
            };
            tokio::spawn(async move {
                for piece in pieces {
                    if sender.send_data(piece).await.is_err() {
                        return; // the client went away
                    }
                }
                if stall {
                    // The body stays open while this task holds its sender.
                    std::future::pending::<()>().await;
                }
            });
            built(
                Response::builder()
                    .header(CONTENT_TYPE, "text/event-stream; charset=utf-8")
                    .header(CACHE_CONTROL, "no-cache")
                    .body(body.boxed()),
            )
        }
    }
}

fn text(status: StatusCode, text: &'static str) -> Reply {
    built(
        Response::builder()
            .status(status)
            .header(CONTENT_TYPE, "text/plain")
            .body(full(Bytes::from(text))),
    )
}

fn full(bytes: Bytes) -> BoxBody<Bytes, io::Error> {
    Full::new(bytes).map_err(|never| match never {}).boxed()
}

/// The builder only fails on invalid headers, which a script can give (a `retry-after`
/// with a line break): the test then sees a 500 saying so.
fn built(reply: Result<Reply, hyper::http::Error>) -> Reply {
    reply.unwrap_or_else(|e| {
        let mut reply = Response::new(full(Bytes::from(e.to_string())));
        *reply.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
        reply
    })
}

/// Whether `value` holds, at any depth, a part of type `kind` (text that names one is not).
fn has_part(value: &Value, kind: &str) -> bool {
    match value {
        Value::Object(object) => {
            object.get("type").and_then(Value::as_str) == Some(kind)
                || object.values().any(|v| has_part(v, kind))
        }
        Value::Array(items) => items.iter().any(|v| has_part(v, kind)),
        _ => false,
    }
}
