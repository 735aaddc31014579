//! A person without a mouse: keys pressed on whatever has the focus (WebDriver's key
//! actions, which the page receives as real key events), and what has the focus, named as
//! a screen reader would say it.

use std::time::Duration;

use serde_json::{Value, json};

use super::webdriver::Session;

/// The keys the tests press, in WebDriver's code points.
pub const TAB: &str = "\u{E004}";
pub const ENTER: &str = "\u{E007}";
pub const ESCAPE: &str = "\u{E00C}";
pub const SHIFT: &str = "\u{E008}";
pub const CONTROL: &str = "\u{E009}";
pub const BACKSPACE: &str = "\u{E003}";

/// How many presses of Tab may reach a control before it counts as out of reach.
const MOST_TABS: usize = 120;

/// What has the focus.
#[derive(Debug, Clone, PartialEq)]
pub struct Focused {
    /// The element's tag, lower case (`button`, `input`, `textarea`).
    pub tag: String,
    /// Its accessible name, near enough: `aria-label`, what `aria-labelledby` names, its
    /// `<label>`, its title or its text.
    pub name: String,
    /// Whether it is inside a dialog.
    pub in_dialog: bool,
}

impl Session {
    /// Presses each of `keys` in turn (a character or one of the constants above), as on a
    /// keyboard: down, then up.
    pub fn press_keys(&self, keys: &[&str]) {
        let actions: Vec<Value> = keys
            .iter()
            .flat_map(|key| {
                [
                    json!({"type": "keyDown", "value": key}),
                    json!({"type": "keyUp", "value": key}),
                ]
            })
            .collect();
        self.perform(actions);
    }

    /// Presses `keys` together, as Ctrl+A: each down in turn, then each up.
    pub fn chord(&self, keys: &[&str]) {
        let down = keys
            .iter()
            .map(|key| json!({"type": "keyDown", "value": key}));
        let up = keys
            .iter()
            .rev()
            .map(|key| json!({"type": "keyUp", "value": key}));
        self.perform(down.chain(up).collect());
    }

    /// Shift+Tab: the focus back one control.
    pub fn shift_tab(&self) {
        self.chord(&[SHIFT, TAB]);
    }

    /// Empties the field that has the focus as a person does: Ctrl+A, Backspace.
    pub fn clear_field(&self) {
        self.chord(&[CONTROL, "a"]);
        self.press_keys(&[BACKSPACE]);
    }

    /// Types `text` into whatever has the focus, key by key.
    pub fn type_keys(&self, text: &str) {
        let keys: Vec<String> = text.chars().map(String::from).collect();
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        self.press_keys(&keys);
    }

    fn perform(&self, actions: Vec<Value>) {
        self.actions(json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]}));
    }

    /// What has the focus now; none when nothing does (the page itself).
    pub fn focused(&self) -> Option<Focused> {
        let seen = self.execute(
            "const el = document.activeElement;\
             if (!el || el === document.body || el === document.documentElement) return null;\
             const byIds = (ids) => ids.split(/\\s+/).map(id => document.getElementById(id)?.textContent ?? '').join(' ');\
             const name = el.getAttribute('aria-label')\
                 || (el.getAttribute('aria-labelledby') && byIds(el.getAttribute('aria-labelledby')))\
                 || (el.labels && el.labels.length ? [...el.labels].map(l => l.textContent).join(' ') : '')\
                 || el.getAttribute('title') || el.textContent || el.getAttribute('placeholder') || '';\
             return {tag: el.tagName.toLowerCase(), name: name.trim().replace(/\\s+/g, ' '),\
                     inDialog: !!el.closest(\"[role='dialog']\")};",
            json!([]),
        );
        (!seen.is_null()).then(|| Focused {
            tag: seen["tag"].as_str().unwrap_or_default().to_owned(),
            name: seen["name"].as_str().unwrap_or_default().to_owned(),
            in_dialog: seen["inDialog"] == true,
        })
    }

    /// Presses Tab until the focus is on a control named `name` (or whose name starts with
    /// it), as a person does; fails when it is out of the keyboard's reach. Returns what
    /// had the focus on the way.
    pub fn tab_to(&self, name: &str) -> Vec<Focused> {
        self.move_focus_to(name, || self.press_keys(&[TAB]))
    }

    /// [`Self::tab_to`] backwards, with Shift+Tab.
    pub fn tab_back_to(&self, name: &str) -> Vec<Focused> {
        self.move_focus_to(name, || self.shift_tab())
    }

    fn move_focus_to(&self, name: &str, step: impl Fn()) -> Vec<Focused> {
        let mut passed = Vec::new();
        for _ in 0..MOST_TABS {
            if let Some(focused) = self.focused() {
                if focused.name == name || focused.name.starts_with(name) {
                    return passed;
                }
                passed.push(focused);
            }
            step();
        }
        let names: Vec<&str> = passed.iter().map(|f| f.name.as_str()).collect();
        panic!("{name:?} is out of the keyboard's reach: {MOST_TABS} keys passed {names:?}");
    }

    /// Waits until the focus is on a control named `name`, after a key that moves it.
    pub fn wait_for_focus(&self, name: &str, limit: Duration) -> Focused {
        let started = std::time::Instant::now();
        loop {
            let focused = self.focused();
            if let Some(f) = &focused
                && (f.name == name || f.name.starts_with(name))
            {
                return f.clone();
            }
            assert!(
                started.elapsed() < limit,
                "the focus is not on {name:?} within {limit:?}: {focused:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
