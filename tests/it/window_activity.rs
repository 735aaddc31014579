//! A person at the real window with a call under way: the demo server's slow count, started
//! in the Explorer, is in Activity's "Running" list at once with its elapsed time and
//! Cancel, and the Explorer still shows it, its form and its result when the person comes
//! back.

use crate::support::window::{App, DETAIL, SHOWN};

const RUNNING: &str = "section[aria-labelledby='running-title']";

#[test]
fn a_call_under_way_is_in_activity_at_once_and_in_the_explorer_on_return() {
    let app = App::start();
    let w = &app.window;
    app.wait_running("demo");

    app.open_tool("demo", "Count slowly");
    app.fill(DETAIL, "n", "3");
    app.fill(DETAIL, "delay_ms", "3000");
    app.invoke();

    // Before its first step, three seconds away: listed, timed, cancellable.
    app.view("activity");
    let shown = w.wait_for_texts(RUNNING, &["Count slowly", "demo", "Cancel"], SHOWN);
    assert!(shown.contains(" s"), "the elapsed time is shown: {shown}");
    w.screenshot("activity-running");

    // Back in the Explorer: the form as it was, the call still under way, then its result.
    app.view("explorer");
    w.wait_for_text(DETAIL, "Cancel", SHOWN);
    let n = w.field(DETAIL, "n");
    assert_eq!(w.value(&n), "3");
    app.result("counted to 3");
    app.view("activity");
    w.wait_for_text(RUNNING, "No call is under way.", SHOWN);
}
