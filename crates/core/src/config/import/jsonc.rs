//! VS Code's "JSON with comments": comments and trailing commas, read as plain JSON.

/// JSON with comments (`//`, `/* */`) and trailing commas, as plain JSON.
pub(super) fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    if c == '\n' {
                        out.push('\n');
                    }
                    last = c;
                }
            }
            (',', _) => {
                // A comma followed only by blanks (and comments) before a closing bracket.
                let rest: String = chars.clone().collect();
                let next = strip_leading_blanks_and_comments(&rest);
                if !(next.starts_with('}') || next.starts_with(']')) {
                    out.push(',');
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn strip_leading_blanks_and_comments(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        if let Some(rest) = text.strip_prefix("//") {
            text = rest.find('\n').map_or("", |at| &rest[at..]);
        } else if let Some(rest) = text.strip_prefix("/*") {
            text = rest.find("*/").map_or("", |at| &rest[at + 2..]);
        } else {
            return text;
        }
    }
}
