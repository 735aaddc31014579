//! An accessibility audit of what the window shows now: axe-core (Deque's engine, the one
//! browsers' own audits use) run inside the real window, against the WCAG 2.2 A and AA
//! rules. Each violation is told by its rule, its impact and the elements it found.

use std::sync::OnceLock;

use serde_json::{Value, json};

use super::webdriver::Session;

/// The rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA, by axe-core's tags.
const WCAG_AA: [&str; 6] = [
    "wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa",
];

/// What axe-core finds against WCAG 2.2 A/AA in the window now, one line per violation.
pub fn violations(window: &Session) -> Vec<String> {
    // Read once; run into the page at each audit, which may be a page of a new window.
    static AXE: OnceLock<String> = OnceLock::new();
    let axe = AXE.get_or_init(|| {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/peers/node/node_modules/axe-core/axe.min.js");
        let source =
            std::fs::read_to_string(&path).expect("axe-core is installed: run scripts/setup");
        format!("{source}\nreturn true;")
    });
    window.execute(axe, json!([]));
    let found = window.execute_async(
        "const done = arguments[arguments.length - 1];\
         axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}})\
            .then(r => done(r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,\
                nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary)}))))\
            .catch(e => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));",
        json!([WCAG_AA]),
    );
    found
        .as_array()
        .expect("a list of violations")
        .iter()
        .map(told)
        .collect()
}

fn told(violation: &Value) -> String {
    let nodes: Vec<&str> = violation["nodes"]
        .as_array()
        .map(|n| n.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    format!(
        "{} ({}): {}\n    {}",
        violation["id"].as_str().unwrap_or_default(),
        violation["impact"].as_str().unwrap_or_default(),
        violation["help"].as_str().unwrap_or_default(),
        nodes.join("\n    ")
    )
}
