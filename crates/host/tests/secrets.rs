//! Secrets against the real OS keyring: the Secret Service of the session (scripts/test
//! starts a private one with scripts/with-keyring).

use switchboard_host::secrets::Secrets;

fn keyring() -> Secrets {
    assert!(
        std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some(),
        "no D-Bus session: run under `dbus-run-session -- scripts/with-keyring`"
    );
    // A service name of its own per test run, so that runs never see each other's secrets.
    Secrets::new(&format!("switchboard-test-{}", std::process::id()))
}

#[test]
fn a_secret_round_trips_through_the_keyring_and_can_be_deleted() {
    let secrets = keyring();
    assert_eq!(secrets.get("api-token").unwrap(), None);
    secrets.set("api-token", "s3cr3t ✓").unwrap();
    assert_eq!(
        secrets.get("api-token").unwrap().as_deref(),
        Some("s3cr3t ✓")
    );
    secrets.set("api-token", "rotated").unwrap();
    assert_eq!(
        secrets.get("api-token").unwrap().as_deref(),
        Some("rotated")
    );
    assert!(secrets.delete("api-token").unwrap());
    assert!(!secrets.delete("api-token").unwrap());
    assert_eq!(secrets.get("api-token").unwrap(), None);
}

#[test]
fn the_secret_is_visible_to_other_programs_of_the_session() {
    // What the keyring holds is really in the Secret Service, not in this process.
    let secrets = keyring();
    secrets.set("shared", "from-switchboard").unwrap();
    let service = format!("switchboard-test-{}", std::process::id());
    let out = std::process::Command::new("secret-tool")
        .args(["lookup", "service", &service, "username", "shared"])
        .output()
        .expect("secret-tool (libsecret-tools) is installed by scripts/setup");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "from-switchboard");
    secrets.delete("shared").unwrap();
}
