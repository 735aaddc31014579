//! A server that refuses a call until the person has visited a page (error -32042, URL
//! elicitation required): the page is offered in the URL dialog, and the call, tried again
//! once the person went there, goes through. The demo server's `connect_account` refuses
//! its first call so.

#![allow(clippy::unwrap_used)] // Test helpers: a failed unwrap is a failed test.

use serde_json::json;
use switchboard_core::approvals::Question;
use switchboard_desk::ExplorerError;
use switchboard_mcp::types::ElicitRequestParams;

use crate::common::{demo_desk, text_of};

const CONNECT: &str = "https://example.com/demo-connect";

#[tokio::test]
async fn a_call_refused_until_a_page_is_visited_offers_the_page_then_goes_through_when_retried() {
    for (answer, opened, says) in [
        ("accept", 1, "once you have, try the call again"),
        (
            "decline",
            0,
            "which you did not open; the call was not made",
        ),
    ] {
        let mut world = demo_desk(json!({})).await;
        let call = world.call("connect_account", json!({}), "connect");

        // The page the refusal names, in the URL dialog, for the server that refused.
        let asked = world.asked().await;
        assert_eq!(asked.server, "demo");
        let Question::Elicitation { params } = &asked.question else {
            panic!("asked {:?}", asked.question)
        };
        let ElicitRequestParams::Url(step) = params.as_ref() else {
            panic!("a form: {params:?}")
        };
        assert_eq!(step.url, CONNECT);
        let to_open = world
            .desk
            .trust()
            .answer_elicitation(asked.id, "demo", json!({ "action": answer }))
            .unwrap();
        assert_eq!(to_open.as_deref(), (opened == 1).then_some(CONNECT));

        // The call itself was not made; the person reads why and what to do.
        let refused = call.await.unwrap().unwrap_err();
        assert!(
            matches!(&refused, ExplorerError::StepsInBrowser { steps: 1, opened: o, .. } if *o == opened),
            "{refused:?}"
        );
        assert!(refused.to_string().contains(says), "{refused}");

        // Tried again, it goes through.
        let result = world
            .call("connect_account", json!({}), "again")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            text_of(&result),
            "connected: the demo account is yours to use"
        );
        assert!(world.desk.trust().pending().is_empty());
        world.desk.shutdown().await;
    }
}
