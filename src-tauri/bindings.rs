//! `ui/src/bindings.ts` is generated from the Rust types. These tests fail when the
//! committed file is stale, when a command lacks the permission the window needs, or when
//! a field that crosses to the window is not camelCase.
//! Regenerate with `SWITCHBOARD_WRITE_BINDINGS=1 cargo test -p switchboard bindings`.

use std::collections::BTreeSet;
use std::path::Path;

const BINDINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ui/src/bindings.ts");

/// The MCP schema's types (`ui/src/mcp/schema.ts`, generated from the official schema), by
/// which the host describes the MCP payloads it passes on (`switchboard_core::json::mcp`).
const MCP_TYPES: &str = "import type * as Mcp from \"./mcp/schema\";";

fn generated() -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bindings.ts");
    crate::ipc()
        .export(
            specta_typescript::Typescript::default().header(MCP_TYPES),
            &path,
        )
        .expect("export bindings");
    std::fs::read_to_string(path).expect("read generated bindings")
}

#[test]
fn bindings_are_current() {
    let fresh = generated();
    if std::env::var_os("SWITCHBOARD_WRITE_BINDINGS").is_some() {
        std::fs::write(BINDINGS, &fresh).expect("write bindings");
        return;
    }
    let committed = std::fs::read_to_string(Path::new(BINDINGS)).unwrap_or_default();
    assert!(
        committed == fresh,
        "ui/src/bindings.ts is stale: run `SWITCHBOARD_WRITE_BINDINGS=1 cargo test -p switchboard bindings`"
    );
}

#[test]
fn every_command_has_a_permission_in_the_capability() {
    let bindings = generated();
    let capability: serde_json::Value =
        serde_json::from_str(include_str!("capabilities/main.json")).expect("capability is JSON");
    let granted: Vec<&str> = capability["permissions"]
        .as_array()
        .expect("permissions list")
        .iter()
        .filter_map(|p| p.as_str())
        .collect();
    // Calls look like `__TAURI_INVOKE<AppInfo>("app_info")`.
    let invoked: Vec<&str> = bindings
        .split("__TAURI_INVOKE")
        .skip(1)
        .filter(|rest| rest.starts_with(['<', '(']))
        .filter_map(|rest| rest.split_once("(\"")?.1.split('"').next())
        .collect();
    assert!(!invoked.is_empty(), "no command found in the bindings");
    let own: Vec<String> = invoked
        .iter()
        .map(|command| format!("allow-{}", command.replace('_', "-")))
        .collect();
    for (command, permission) in invoked.iter().zip(&own) {
        assert!(
            granted.contains(&permission.as_str()),
            "command `{command}` is not granted by src-tauri/capabilities/main.json ({permission})"
        );
    }
    // And nothing more: no command of Tauri's own or of a plugin beyond event listening.
    let listening = ["core:event:allow-listen", "core:event:allow-unlisten"];
    let more: Vec<&str> = granted
        .into_iter()
        .filter(|p| !listening.contains(p) && !own.iter().any(|o| o == p))
        .collect();
    assert!(
        more.is_empty(),
        "src-tauri/capabilities/main.json grants the window more than the app's own commands: {more:?}"
    );
}

/// The fields of every type the window and the app exchange are camelCase, in both
/// directions: a Rust type that crosses says `#[serde(rename_all = "camelCase")]` (an
/// enum with fields in its variants, `rename_all_fields = "camelCase"`). Tag values (a
/// variant's `"kind": "approval_added"`) are values, not fields; the MCP payloads passed on
/// as they are keep the schema's own names, and are the schema's types (`Mcp.*`), not these.
#[test]
fn every_field_that_crosses_to_the_window_is_camel_case() {
    let bindings = generated();
    let types = bindings
        .split_once("/* Types */")
        .and_then(|(_, rest)| rest.split_once("/* Tauri Specta runtime */"))
        .map(|(types, _)| types)
        .expect("the bindings' types section");
    // A type that differs by direction is exported twice (`T_Serialize`, `T_Deserialize`).
    let snake: BTreeSet<String> = fields(&code_of(types))
        .into_iter()
        .filter(|(_, field)| field.contains('_'))
        .map(|(ty, field)| {
            let ty = ty
                .trim_end_matches("_Serialize")
                .trim_end_matches("_Deserialize");
            format!("{ty}.{field}")
        })
        .collect();
    assert!(
        snake.is_empty(),
        "fields that cross to the window in snake_case (make them camelCase): {snake:?}"
    );
}

/// TypeScript without its comments and with every string literal emptied.
fn code_of(typescript: &str) -> String {
    let mut code = String::with_capacity(typescript.len());
    let mut chars = typescript.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                code.push_str("\"\"");
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
                code.push(' ');
            }
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
                code.push('\n');
            }
            c => code.push(c),
        }
    }
    code
}

/// Each field named in an object type, with the exported type it is found in: a name
/// after `{`, `;` or `,` and before `:` or `?:`.
fn fields(code: &str) -> Vec<(String, String)> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut found = Vec::new();
    for declaration in code.split("export type ").skip(1) {
        let name: String = declaration.chars().take_while(|&c| word(c)).collect();
        let chars: Vec<char> = declaration.chars().collect();
        let mut at = 0;
        while at < chars.len() {
            if !word(chars[at]) || (at > 0 && word(chars[at - 1])) {
                at += 1;
                continue;
            }
            let start = at;
            while at < chars.len() && word(chars[at]) {
                at += 1;
            }
            let before = chars[..start].iter().rev().find(|c| !c.is_whitespace());
            let mut after = chars[at..].iter().filter(|c| !c.is_whitespace());
            let colon = match after.next() {
                Some(':') => true,
                Some('?') => after.next() == Some(&':'),
                _ => false,
            };
            if colon && matches!(before, Some('{' | ';' | ',')) {
                found.push((name.clone(), chars[start..at].iter().collect()));
            }
        }
    }
    found
}

#[test]
fn the_field_check_reads_object_types_and_skips_comments_and_values() {
    let code = code_of(
        "export type A = { kind: \"tool_call\"; call_id: string; /** not_a: field */ \
         isError?: boolean }\nexport type B = { [key in string]: JsonValue } | { x_y: A; \
         // z_z: no\n w: { inner_one: number } };",
    );
    let fields = fields(&code);
    let names: Vec<String> = fields.iter().map(|(t, f)| format!("{t}.{f}")).collect();
    assert_eq!(
        names,
        [
            "A.kind",
            "A.call_id",
            "A.isError",
            "B.x_y",
            "B.w",
            "B.inner_one"
        ]
    );
}
