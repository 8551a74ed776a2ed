//! axe-core, Deque's accessibility checker, run inside the page of a WebDriver session against
//! the WCAG 2.0, 2.1 and 2.2 rules of levels A and AA.
//!
//! The script is not in the repository: `.ci/run` installs the pinned version with npm into
//! `$HOME/.cache/slowfuse-axe`, and `SLOWFUSE_AXE` may name another `axe.min.js`.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::Session;

/// The version `.ci/run` installs; another one is refused, so that results stay comparable.
pub const AXE_VERSION: &str = "4.14";

/// The rule tags a page must pass: WCAG 2.0, 2.1 and 2.2, levels A and AA.
pub const WCAG_TAGS: [&str; 5] = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/// Where `axe.min.js` is looked for: `SLOWFUSE_AXE`, else where `.ci/run` puts it.
pub fn axe_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("SLOWFUSE_AXE").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let home = std::env::var_os("HOME")?;
    Some(PathBuf::from(home).join(".cache/slowfuse-axe/node_modules/axe-core/axe.min.js"))
}

/// The text of `axe.min.js`; `None` (the test skips) when it is not installed, except in CI,
/// where the accessibility check must run.
pub fn axe_script() -> Option<String> {
    let path = axe_path();
    let script = path.as_ref().and_then(|p| std::fs::read_to_string(p).ok());
    let Some(script) = script else {
        assert!(
            !crate::common::under_ci(),
            "axe-core not found at {path:?}; CI must run the accessibility check \
             (npm install --prefix \"$HOME/.cache/slowfuse-axe\" axe-core@{AXE_VERSION}, as .ci/run does, \
             or set SLOWFUSE_AXE to an axe.min.js)"
        );
        eprintln!("SKIPPED: axe-core not installed (see .ci/run)");
        return None;
    };
    let head: String = script.chars().take(40).collect();
    assert!(
        head.contains(&format!("axe v{AXE_VERSION}.")),
        "{path:?} is not axe-core {AXE_VERSION}: {head}"
    );
    Some(script)
}

/// One rule that a page breaks: its id, what it asks, and the elements that break it.
#[derive(Debug)]
pub struct Violation {
    pub rule: String,
    pub impact: String,
    pub help: String,
    /// Each element as its CSS path, then axe's summary of what is wrong with it.
    pub nodes: Vec<String>,
}

/// Runs axe over the whole document shown in `window` (loading it into the page first when a
/// navigation dropped it) and returns the WCAG A/AA rules it breaks.
pub fn audit(window: &Session, script: &str) -> Vec<Violation> {
    let loaded = window.execute("return typeof window.axe === 'object';", json!([]));
    if loaded != json!(true) {
        window.execute(&format!("{script}\n;return true;"), json!([]));
    }
    let answer = window.execute_async(
        "const done = arguments[arguments.length - 1];
         axe.run(document, {
             runOnly: { type: 'tag', values: arguments[0] },
             resultTypes: ['violations'],
         }).then(
             r => done(r.violations.map(v => ({
                 rule: v.id,
                 impact: v.impact || '',
                 help: v.help,
                 nodes: v.nodes.map(n => n.target.join(' ') + ': ' + (n.failureSummary || '').replace(/\\s+/g, ' ')),
             }))),
             e => done({ error: String(e) }),
         );",
        json!([WCAG_TAGS]),
    );
    if let Some(error) = answer.get("error") {
        panic!("axe failed on {}: {error}", window.url());
    }
    answer
        .as_array()
        .expect("axe's list of violations")
        .iter()
        .map(|v| Violation {
            rule: text(&v["rule"]),
            impact: text(&v["impact"]),
            help: text(&v["help"]),
            nodes: v["nodes"]
                .as_array()
                .map(|n| n.iter().map(text).collect())
                .unwrap_or_default(),
        })
        .collect()
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}
