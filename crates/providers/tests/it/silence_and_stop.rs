//! A provider gone silent mid-answer, and an answer stopped by the host, for each
//! protocol.

use std::time::Duration;

use serde_json::json;
use switchboard_providers::*;

use crate::common;
use crate::common::*;

fn clients(stand_in: &StandIn, read_timeout: Duration) -> [Client; APIS.len()] {
    APIS.map(|api| {
        let mut config = api.config(&stand_in.url, None);
        config.read_timeout = read_timeout;
        Client::new(config).expect("a client")
    })
}

fn ask(model: &str) -> Request {
    Request::new(model, 64, vec![Message::user_text("hi")])
}

#[tokio::test]
async fn a_provider_silent_mid_answer_is_an_error_after_the_read_timeout() {
    let stalled = json!({"content": [{"text": "I was saying"}], "stall": true});
    let stand_in = StandIn::start(json!({ "turns": vec![stalled; APIS.len()] })).await;
    for client in clients(&stand_in, Duration::from_millis(500)) {
        let (events, error) = common::events(&client, &ask("m")).await;
        assert_eq!(text_deltas(&events), ["I was saying"]);
        assert!(
            matches!(&error, Some(Error::Connection(m)) if m.contains("no answer in time")),
            "{error:?}"
        );
        assert!(error.is_some_and(|e| e.is_transient()));
    }
}

#[tokio::test]
async fn a_dropped_stream_stops_the_answer_and_the_client_goes_on() {
    let stalled = json!({"content": [{"text": "Once upon"}], "stall": true});
    let done = json!({"content": [{"text": "Next."}]});
    let turns: Vec<_> = APIS.iter().flat_map(|_| [&stalled, &done]).collect();
    let stand_in = StandIn::start(json!({ "turns": turns })).await;
    for client in clients(&stand_in, Duration::from_secs(300)) {
        let mut stream = client.stream(&ask("m")).await.unwrap();
        while let Some(event) = stream.next().await {
            if event.unwrap() == Event::TextDelta("Once upon".into()) {
                break;
            }
        }
        // Stop: the host drops the stream mid-answer.
        drop(stream);
        assert_eq!(streamed(&client, &ask("m")).await.text(), "Next.");
    }
}
