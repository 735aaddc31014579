//! The few W3C WebDriver calls the tests use, over plain HTTP.

use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

/// The W3C key under which an element reference travels.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// How long a look-up by label waits for the app to show the control.
const FIND_LIMIT: Duration = Duration::from_secs(30);

pub struct Session {
    agent: ureq::Agent,
    base: String,
    /// The X display the app is on, for screenshots.
    screen: String,
}

#[derive(Debug, Clone)]
pub struct Element(String);

/// Where an element lies in the viewport, in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

impl Session {
    /// Opens a session on the app binary and sets how long element look-ups wait for the
    /// element to appear.
    pub fn open(
        display: &super::display::Display,
        driver_url: &str,
        application: &Path,
        implicit_wait: Duration,
    ) -> Self {
        Self::open_with_args(display, driver_url, application, &[], implicit_wait)
    }

    /// The application started with `args` on its command line.
    pub fn open_with_args(
        display: &super::display::Display,
        driver_url: &str,
        application: &Path,
        args: &[String],
        implicit_wait: Duration,
    ) -> Self {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        let caps = json!({"capabilities": {"alwaysMatch": {"tauri:options": {
            "application": application,
            "args": args,
        }}}});
        let reply = send(&agent, "POST", &format!("{driver_url}/session"), Some(caps));
        let id = reply["sessionId"]
            .as_str()
            .expect("the new session's id")
            .to_owned();
        let session = Self {
            agent,
            base: format!("{driver_url}/session/{id}"),
            screen: display.name.clone(),
        };
        session.call(
            "POST",
            "/timeouts",
            Some(json!({"implicit": implicit_wait.as_millis() as u64})),
        );
        session
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        send(&self.agent, method, &format!("{}{path}", self.base), body)
    }

    pub fn find(&self, css: &str) -> Element {
        let v = self.call(
            "POST",
            "/element",
            Some(json!({"using": "css selector", "value": css})),
        );
        element_of(&v).unwrap_or_else(|| panic!("no element matches {css:?}: {v}"))
    }

    pub fn find_all(&self, css: &str) -> Vec<Element> {
        let v = self.call(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        v.as_array()
            .expect("a list of elements")
            .iter()
            .filter_map(element_of)
            .collect()
    }

    pub fn text(&self, el: &Element) -> String {
        self.call("GET", &format!("/element/{}/text", el.0), None)
            .as_str()
            .expect("element text")
            .to_owned()
    }

    pub fn attribute(&self, el: &Element, name: &str) -> Option<String> {
        self.call("GET", &format!("/element/{}/attribute/{name}", el.0), None)
            .as_str()
            .map(str::to_owned)
    }

    /// Whether a checkbox is ticked.
    pub fn checked(&self, el: &Element) -> bool {
        self.call("GET", &format!("/element/{}/property/checked", el.0), None) == true
    }

    /// The current value of a form control (what the person typed or the app filled in).
    pub fn value(&self, el: &Element) -> String {
        self.call("GET", &format!("/element/{}/property/value", el.0), None)
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// Clicks `el` once it is scrolled into sight, as a person scrolls to a button before
    /// pressing it. WebKit's automation scrolls by itself too, but not always a scrolled
    /// part of the page: without a GL device (or on a busy machine) it then answers "element
    /// not interactable" for a button at the foot of a view.
    pub fn click(&self, el: &Element) {
        self.execute(
            "arguments[0].scrollIntoView({block: 'nearest'});",
            json!([{ ELEMENT_KEY: el.0 }]),
        );
        self.call("POST", &format!("/element/{}/click", el.0), Some(json!({})));
    }

    /// Types into a field (after emptying it when `clear`). Typing nothing into a field
    /// empties it as a person does, with Ctrl+A and Backspace: WebDriver's own clear
    /// changes the field without the input event the app listens to.
    pub fn type_into(&self, el: &Element, text: &str, clear: bool) {
        if text.is_empty() {
            self.call(
                "POST",
                &format!("/element/{}/value", el.0),
                Some(json!({"text": "\u{E009}a\u{E000}\u{E003}"})),
            );
            return;
        }
        if clear {
            self.call("POST", &format!("/element/{}/clear", el.0), Some(json!({})));
        }
        self.call(
            "POST",
            &format!("/element/{}/value", el.0),
            Some(json!({"text": text})),
        );
    }

    /// Replaces what a field holds in a view that draws itself again while open (a dialog's
    /// countdown, each second): emptied first as a person does, so that the app hears it
    /// and cannot put the old text back before the new one is typed.
    pub fn replace_text(&self, el: &Element, text: &str) {
        self.type_into(el, "", true);
        self.type_into(el, text, false);
    }

    /// The form control labelled `label` (by its `<label for>`, whose text starts with
    /// `label`), inside `scope` (a CSS selector).
    pub fn field(&self, scope: &str, label: &str) -> Element {
        self.find_by_script(
            "const scope = document.querySelector(arguments[0]);\
             const label = scope && [...scope.querySelectorAll('label')]\
                 .find(l => l.textContent.trim().startsWith(arguments[1]));\
             return label ? document.getElementById(label.htmlFor) : null;",
            scope,
            label,
        )
    }

    /// The button whose text is `label`, inside `scope` (a CSS selector), once it is
    /// enabled: waits while it is missing or `disabled` (a dialog's guard after it opens).
    pub fn button(&self, scope: &str, label: &str) -> Element {
        self.find_by_script(
            "const scope = document.querySelector(arguments[0]);\
             return scope && [...scope.querySelectorAll('button:not([disabled])')]\
                 .find(b => b.textContent.trim() === arguments[1]) || null;",
            scope,
            label,
        )
    }

    /// Runs `script` (given `scope` and `what`) until it returns an element.
    pub fn find_by_script(&self, script: &str, scope: &str, what: &str) -> Element {
        let started = std::time::Instant::now();
        loop {
            let found = self.call(
                "POST",
                "/execute/sync",
                Some(json!({"script": script, "args": [scope, what]})),
            );
            if let Some(element) = element_of(&found) {
                return element;
            }
            assert!(
                started.elapsed() < FIND_LIMIT,
                "nothing {what:?} in {scope:?} within {FIND_LIMIT:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The text of every element matching `css` now, read in one script.
    pub fn texts(&self, css: &str) -> Vec<String> {
        let seen = self.call(
            "POST",
            "/execute/sync",
            Some(json!({
                "script": "return [...document.querySelectorAll(arguments[0])].map(e => e.innerText);",
                "args": [css],
            })),
        );
        seen.as_array()
            .map(|texts| {
                texts
                    .iter()
                    .filter_map(|t| t.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Waits until the texts of the elements matching `css` satisfy `done`, and returns them.
    pub fn wait_for_all(
        &self,
        css: &str,
        what: &str,
        limit: Duration,
        done: impl Fn(&[String]) -> bool,
    ) -> Vec<String> {
        let started = std::time::Instant::now();
        loop {
            let seen = self.texts(css);
            if done(&seen) {
                return seen;
            }
            assert!(
                started.elapsed() < limit,
                "{css:?} did not come to show {what} within {limit:?}; seen: {seen:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits until an element matching `css` shows text containing `wanted`, and returns
    /// that text. Polls the page: the app updates it when the host answers.
    pub fn wait_for_text(&self, css: &str, wanted: &str, limit: Duration) -> String {
        self.wait_for_texts(css, &[wanted], limit)
    }

    /// Like `wait_for_text`, for an element that shows every one of `wanted`.
    pub fn wait_for_texts(&self, css: &str, wanted: &[&str], limit: Duration) -> String {
        let started = std::time::Instant::now();
        loop {
            // Read in one script: the app re-renders between separate element calls.
            let seen = self.texts(css);
            if let Some(text) = seen.iter().find(|t| wanted.iter().all(|w| t.contains(w))) {
                return text.clone();
            }
            assert!(
                started.elapsed() < limit,
                "no {css:?} showed {wanted:?} within {limit:?}; seen: {seen:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// How many elements match `css` now (counted in the page: no element references that
    /// a re-render could make stale).
    pub fn count(&self, css: &str) -> usize {
        let n = self.call(
            "POST",
            "/execute/sync",
            Some(json!({
                "script": "return document.querySelectorAll(arguments[0]).length;",
                "args": [css],
            })),
        );
        n.as_u64().unwrap_or(0) as usize
    }

    /// From now on, looks and acts inside the frame `el` (a view's), until
    /// [`Self::leave_frames`].
    pub fn enter_frame(&self, el: &Element) {
        self.call("POST", "/frame", Some(json!({"id": { ELEMENT_KEY: el.0 }})));
    }

    /// Back to the window's own page, out of any frame.
    pub fn leave_frames(&self) {
        self.call("POST", "/frame", Some(json!({"id": null})));
    }

    /// Performs W3C input actions (`support::keyboard` sends its keys through it).
    pub fn actions(&self, actions: Value) {
        self.call("POST", "/actions", Some(actions));
    }

    /// Runs `script` in the page with `args` and returns what it returned.
    pub fn execute(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// Runs `script` in the page with `args` and returns what it passed to its callback,
    /// the last argument (for a script that waits on a promise).
    pub fn execute_async(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/async",
            Some(json!({"script": script, "args": args})),
        )
    }

    /// The bounding rectangle of every element matching `css` now, in CSS pixels of the
    /// viewport, read in one script.
    pub fn rects(&self, css: &str) -> Vec<Rect> {
        let seen = self.execute(
            "return [...document.querySelectorAll(arguments[0])].map(e => {\
                 const r = e.getBoundingClientRect();\
                 return [r.left, r.top, r.right, r.bottom];\
             });",
            json!([css]),
        );
        seen.as_array()
            .expect("a list of rectangles")
            .iter()
            .map(|r| {
                let at = |i: usize| r[i].as_f64().expect("a coordinate");
                Rect {
                    left: at(0),
                    top: at(1),
                    right: at(2),
                    bottom: at(3),
                }
            })
            .collect()
    }

    /// What a click at the centre of the first element matching `css` lands on as the window
    /// shows now, with no scrolling: "the element", or what lies there instead (another
    /// element on top, or nothing when the centre is scrolled out of sight or off the window).
    pub fn hit(&self, css: &str) -> String {
        let hit = self.execute(
            "const e = document.querySelector(arguments[0]);\
             if (e === null) return 'no element matches';\
             const r = e.getBoundingClientRect();\
             const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);\
             if (at === null) return 'nothing (off the window)';\
             return e.contains(at) ? 'the element' : at.outerHTML.slice(0, 120);",
            json!([css]),
        );
        hit.as_str().expect("what the click lands on").to_owned()
    }

    /// Asks for the window's outer size; false when the driver cannot change it.
    pub fn set_window_size(&self, width: u32, height: u32) -> bool {
        let url = format!("{}/window/rect", self.base);
        self.agent
            .post(&url)
            .send_json(json!({"width": width, "height": height}))
            .is_ok_and(|r| r.status().is_success())
    }

    /// Scrolls the page until the element matching `css` is in view, as a person scrolls
    /// to what they read.
    pub fn scroll_to(&self, css: &str) {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({
                "script": "document.querySelector(arguments[0]).scrollIntoView({block: 'end'});",
                "args": [css],
            })),
        );
    }

    /// Returns once the page has painted what the DOM holds now: WebKit paints
    /// asynchronously, and a screenshot taken before that shows an earlier frame.
    pub fn wait_for_paint(&self) {
        let script = "const done = arguments[arguments.length - 1];\
                      requestAnimationFrame(() => requestAnimationFrame(() => done(true)));";
        self.call(
            "POST",
            "/execute/async",
            Some(json!({"script": script, "args": []})),
        );
    }

    /// Saves a PNG of the window under `test-artifacts/` and returns its path.
    pub fn screenshot(&self, name: &str) -> std::path::PathBuf {
        self.wait_for_paint();
        let png = super::display::capture(&self.screen);
        let path = super::artifacts_dir().join(format!("{name}.png"));
        std::fs::write(&path, png).expect("write the screenshot");
        path
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Closes the app; the driver's guard stops whatever is left.
        let _ = self.agent.delete(&self.base).call();
    }
}

fn element_of(v: &Value) -> Option<Element> {
    v[ELEMENT_KEY].as_str().map(|id| Element(id.to_owned()))
}

/// Sends one command and returns its `value`, panicking with the driver's own error.
fn send(agent: &ureq::Agent, method: &str, url: &str, body: Option<Value>) -> Value {
    let result = match (method, body) {
        ("GET", _) => agent.get(url).call(),
        ("DELETE", _) => agent.delete(url).call(),
        (_, Some(body)) => agent.post(url).send_json(body),
        (_, None) => agent.post(url).send_empty(),
    };
    let mut response = result.unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let status = response.status();
    let reply: Value = response
        .body_mut()
        .read_json()
        .unwrap_or_else(|e| panic!("{method} {url}: unreadable reply: {e}"));
    assert!(
        status.is_success(),
        "{method} {url}: {status}: {}",
        reply["value"]
    );
    reply["value"].clone()
}
