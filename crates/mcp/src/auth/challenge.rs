//! The `WWW-Authenticate` challenge of a 401 or 403 (RFC 6750 §3, RFC 9728 §5.1): which
//! metadata to read, which scopes the operation needs, and why the token was refused.

/// The parameters of a `Bearer` or `DPoP` challenge that the authorization client acts on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenge {
    /// Where the protected resource metadata is (RFC 9728).
    pub resource_metadata: Option<String>,
    /// The scopes the current operation needs, authoritative for it.
    pub scope: Option<Vec<String>>,
    /// `invalid_token`, `insufficient_scope`, ...
    pub error: Option<String>,
    pub error_description: Option<String>,
}

impl Challenge {
    /// Reads the `Bearer` or `DPoP` challenge of a header value; other schemes are skipped, and a
    /// header that cannot be read yields an empty challenge (discovery then probes the
    /// well-known URLs, as without a header).
    pub fn parse(header: &str) -> Self {
        let mut challenge = Self::default();
        let mut in_bearer = false;
        for Piece { scheme, params } in challenges(header) {
            if let Some(scheme) = scheme {
                in_bearer =
                    scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("dpop");
            }
            if !in_bearer {
                continue;
            }
            for (name, value) in params {
                match name.to_ascii_lowercase().as_str() {
                    "resource_metadata" => challenge.resource_metadata = Some(value),
                    "scope" => {
                        let scopes: Vec<String> =
                            value.split_whitespace().map(str::to_owned).collect();
                        challenge.scope = (!scopes.is_empty()).then_some(scopes);
                    }
                    "error" => challenge.error = Some(value),
                    "error_description" => challenge.error_description = Some(value),
                    _ => {}
                }
            }
        }
        challenge
    }

    pub fn insufficient_scope(&self) -> bool {
        self.error.as_deref() == Some("insufficient_scope")
    }

    /// The server wants a DPoP proof with its nonce (RFC 9449 §9).
    pub fn wants_nonce(&self) -> bool {
        self.error.as_deref() == Some("use_dpop_nonce")
    }
}

/// A scheme and the `name=value` pairs after it (a header may hold several challenges).
struct Piece {
    scheme: Option<String>,
    params: Vec<(String, String)>,
}

/// Splits a header into pieces: a scheme starts a challenge, and the pairs after it
/// belong to it until the next scheme.
fn challenges(header: &str) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    let mut rest = header.trim();
    while !rest.is_empty() {
        // Any whitespace, as the token's end is found: a line break left in place would be
        // read as an empty scheme, again and again.
        rest = rest.trim_start_matches(|c: char| c == ',' || c.is_whitespace());
        if rest.is_empty() {
            break;
        }
        let token_end = rest
            .find(|c: char| c == '=' || c == ',' || c.is_whitespace())
            .unwrap_or(rest.len());
        let token = &rest[..token_end];
        let after = rest[token_end..].trim_start();
        if let Some(value_part) = after.strip_prefix('=') {
            // A token68 ends in '=' padding; a parameter has a value after it.
            let value_part = value_part.trim_start_matches([' ', '\t']);
            let (value, remaining) = read_value(value_part);
            if out.is_empty() {
                out.push(Piece {
                    scheme: None,
                    params: Vec::new(),
                });
            }
            if let Some(last) = out.last_mut() {
                last.params.push((token.to_owned(), value));
            }
            rest = remaining;
        } else {
            out.push(Piece {
                scheme: Some(token.to_owned()),
                params: Vec::new(),
            });
            rest = after;
        }
    }
    out
}

/// A quoted string (with backslash escapes) or a token, and what follows it.
fn read_value(text: &str) -> (String, &str) {
    if let Some(quoted) = text.strip_prefix('"') {
        let mut value = String::new();
        let mut chars = quoted.char_indices();
        while let Some((at, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        value.push(escaped);
                    }
                }
                '"' => return (value, &quoted[at + 1..]),
                _ => value.push(c),
            }
        }
        (value, "")
    } else {
        let end = text
            .find(|c: char| c == ',' || c.is_whitespace())
            .unwrap_or(text.len());
        (text[..end].to_owned(), &text[end..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_parameters_of_a_bearer_challenge() {
        let header = r#"Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", error_description="needs \"write\"""#;
        let challenge = Challenge::parse(header);
        assert_eq!(
            challenge.resource_metadata.as_deref(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource")
        );
        assert_eq!(
            challenge.scope,
            Some(vec!["files:read".to_owned(), "files:write".to_owned()])
        );
        assert!(challenge.insufficient_scope());
        assert_eq!(
            challenge.error_description.as_deref(),
            Some(r#"needs "write""#)
        );
    }

    #[test]
    fn skips_other_schemes_and_reads_unquoted_values() {
        let header = r#"Basic realm="x", scope="ignored", Bearer resource_metadata=https://a.example/prm,error=invalid_token"#;
        let challenge = Challenge::parse(header);
        assert_eq!(
            challenge.resource_metadata.as_deref(),
            Some("https://a.example/prm")
        );
        assert_eq!(challenge.error.as_deref(), Some("invalid_token"));
        assert_eq!(challenge.scope, None);
    }

    #[test]
    fn a_line_break_separates_as_a_space_does() {
        assert_eq!(Challenge::parse("a\nb"), Challenge::default());
        let challenge = Challenge::parse("Bearer\nerror=\"invalid_token\"");
        assert_eq!(challenge.error.as_deref(), Some("invalid_token"));
    }

    #[test]
    fn a_bare_scheme_or_garbage_yields_nothing() {
        assert_eq!(Challenge::parse("Bearer"), Challenge::default());
        assert_eq!(Challenge::parse("\"=,,=\""), Challenge::default());
        assert_eq!(Challenge::parse(""), Challenge::default());
    }
}
