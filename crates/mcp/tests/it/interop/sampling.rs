//! A server's sampling request reaches the person as the server wrote it, and their reply
//! (or their refusal) reaches the tool that asked.

use switchboard_mcp::types::{Role, SamplingContent};

use super::{Text, arguments};
use crate::common::http_peers::{EverythingHttp, PyHttp};
use crate::common::peers::{Reach, each_peer};
use crate::common::{Person, Script, first_text};

struct Peer {
    reach: Reach,
    tool: &'static str,
    /// The tool's arguments, asking "Capital of France?".
    asking: &'static str,
    /// The tool's text once the person replied "Paris.".
    replied: Text,
    /// What the server asks for.
    max_tokens: u64,
    system_prompt: Option<&'static str>,
    temperature: Option<f64>,
    /// The text of the message the model is to answer.
    message: &'static str,
    /// Whether the tool fails when the person declines, and its text then.
    declined_fails: bool,
    declined: &'static [Text],
}

const PYTHON: Peer = Peer {
    reach: Reach::PythonStdio,
    tool: "ask_model",
    asking: r#"{"prompt": "Capital of France?"}"#,
    replied: Text::Is("model said: Paris."),
    max_tokens: 100,
    system_prompt: Some("Be brief."),
    temperature: None,
    message: "Capital of France?",
    declined_fails: false,
    declined: &[Text::StartsWith("sampling failed: ")],
};
const RMCP: Peer = Peer {
    reach: Reach::RmcpStdio,
    tool: "sample",
    system_prompt: None,
    declined_fails: true,
    declined: &[
        Text::StartsWith("sampling/createMessage failed: "),
        Text::Contains("the user declined"),
    ],
    ..PYTHON
};
const EVERYTHING: Peer = Peer {
    reach: Reach::EverythingStdio,
    tool: "trigger-sampling-request",
    asking: r#"{"prompt": "Capital of France?", "maxTokens": 42}"#,
    replied: Text::JsonAfter(
        "LLM sampling result: \n",
        r#"{"role": "assistant", "content": {"type": "text", "text": "Paris."},
            "model": "scripted-model"}"#,
    ),
    max_tokens: 42,
    system_prompt: Some("You are a helpful test server."),
    temperature: Some(0.7),
    message: "Resource trigger-sampling-request context: Capital of France?",
    declined_fails: true,
    declined: &[Text::Contains("the user declined")],
};

/// The person replies; the server had asked as it wrote, once.
async fn replied(peer: &Peer) {
    let person = Person::new(Script {
        sampling_reply: Some("Paris.".into()),
        ..Script::default()
    });
    let connected = peer.reach.connect(person.clone()).await;
    let client = &connected.client;
    // Some servers list the tool only once they know, from `initialized`, that the client
    // samples.
    let tools = client.list_tools().await.expect("tools/list");
    assert!(tools.iter().any(|t| t.name == peer.tool), "{tools:?}");
    let result = client
        .call_tool(peer.tool, arguments(peer.asking), client.request_options())
        .await
        .expect("tools/call");
    assert!(!result.failed(), "{result:?}");
    peer.replied.check(first_text(&result), "the tool's result");
    {
        let seen = person.seen.lock().expect("seen lock");
        let [request] = seen.sampling.as_slice() else {
            panic!("one sampling request: {:?}", seen.sampling)
        };
        assert_eq!(request.max_tokens, peer.max_tokens);
        if let Some(system_prompt) = peer.system_prompt {
            assert_eq!(request.system_prompt.as_deref(), Some(system_prompt));
        }
        if let Some(temperature) = peer.temperature {
            assert_eq!(request.temperature, Some(temperature));
        }
        assert_eq!(request.messages[0].role, Role::User);
        assert_eq!(
            request.messages[0]
                .content
                .iter()
                .next()
                .and_then(SamplingContent::as_text),
            Some(peer.message)
        );
    }
    client.close().await;
}

each_peer!(replied {
    everything_stdio: EVERYTHING,
    everything_streamable_http: EVERYTHING => Reach::EverythingHttp(EverythingHttp::Streamable),
    python_stdio: PYTHON,
    python_streamable_http: PYTHON => Reach::PythonHttp(PyHttp::Streamable),
    python_sse: PYTHON => Reach::PythonHttp(PyHttp::Sse),
    rmcp_stdio: RMCP,
    rmcp_streamable_http: RMCP => Reach::RmcpHttp,
});

/// The person declines, once asked; the tool hears it.
async fn declined(peer: &Peer) {
    let person = Person::new(Script::default());
    let connected = peer.reach.connect(person.clone()).await;
    let client = &connected.client;
    let result = client
        .call_tool(peer.tool, arguments(peer.asking), client.request_options())
        .await
        .expect("tools/call");
    assert_eq!(result.failed(), peer.declined_fails, "{result:?}");
    for text in peer.declined {
        text.check(first_text(&result), "the tool's result");
    }
    assert_eq!(person.seen.lock().expect("seen lock").sampling.len(), 1);
    client.close().await;
}

each_peer!(declined {
    everything_stdio: EVERYTHING,
    python_stdio: PYTHON,
    rmcp_stdio: RMCP,
});
