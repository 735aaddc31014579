//! The host's layers, bottom first: a module may import only from its own layer or those
//! below (see `switchboard_test_support::layers`).

const LAYERS: &[&[&str]] = &[
    // Words and tools every part uses.
    &[
        "json",
        "clock",
        "cut",
        "recent",
        "atomic_file",
        "sqlite_file",
        "masking",
        "log_line",
        "links",
        "secrets",
        "endpoint",
        "decisions",
    ],
    // What servers offer, and what the person's trust in them is pinned to.
    &[
        "catalog",
        "pins",
        "roots",
        "sandbox",
        "reads",
        "views",
        "skills",
        "registry",
        "traffic",
        "delegated",
        // After the sandbox: a server that cannot start says why.
        "server_events",
    ],
    // The configuration.
    &["config"],
    // Trust, its record, and the questions the person answers.
    &[
        "audit",
        "policy",
        "approvals",
        "sampling",
        "sign_in",
        "launch",
        "server_requests",
    ],
    // The gate, the servers' supervisors and the agents' set-up.
    &["gate", "supervisor", "fleet", "agent_setup"],
];

#[test]
fn no_module_imports_one_above_it_or_one_that_imports_it_back() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    switchboard_test_support::layers::assert_layered(&src, LAYERS);
}
