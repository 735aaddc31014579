//! `${env:NAME}` and `${input:ID}` inside a value: one reading of them for the launch, which
//! expands the first, and for the import, which shows both to the person.

/// What a placeholder draws on: `env` (Switchboard's environment) or `input` (a VS Code
/// prompt).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Env,
    Input,
}

impl Kind {
    fn opening(self) -> &'static str {
        match self {
            Self::Env => "${env:",
            Self::Input => "${input:",
        }
    }
}

/// The names of the `${kind:NAME}` placeholders in `text`, in order.
pub fn names(text: &str, kind: Kind) -> Vec<&str> {
    let mut found = Vec::new();
    walk(text, kind, |_, name| found.push(name));
    found
}

/// `text` with each `${kind:NAME}` replaced by `value(NAME)`; an unclosed `${` stays as it is.
pub fn replace(text: &str, kind: Kind, mut value: impl FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let rest = walk(text, kind, |before, name| {
        out.push_str(before);
        out.push_str(&value(name));
    });
    out.push_str(rest);
    out
}

/// Calls `each(text before, name)` for every placeholder, and returns the text after the last.
fn walk<'a>(text: &'a str, kind: Kind, mut each: impl FnMut(&'a str, &'a str)) -> &'a str {
    let opening = kind.opening();
    let mut rest = text;
    while let Some(start) = rest.find(opening) {
        let Some(len) = rest[start..].find('}') else {
            break;
        };
        each(&rest[..start], &rest[start + opening.len()..start + len]);
        rest = &rest[start + len + 1..];
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_found_and_replaced_and_the_rest_stays() {
        let text = "Bearer ${input:key} ${env:HOME}/${input:other} ${input:open";
        assert_eq!(names(text, Kind::Input), ["key", "other"]);
        assert_eq!(names(text, Kind::Env), ["HOME"]);
        assert_eq!(
            replace(text, Kind::Input, |id| id.to_uppercase()),
            "Bearer KEY ${env:HOME}/OTHER ${input:open"
        );
        assert!(names("plain ${other}", Kind::Env).is_empty());
    }
}
