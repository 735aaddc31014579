//! Secrets that travel in web addresses — `?token=`, `access_token`, an API key, a signed
//! link's signature, a user name and password — masked in what the host shows and logs.
//! A masked value reads `…`; the rest of the address is left as it was written, so it can
//! still be recognized, and an address that does not parse is masked all the same.

use serde_json::Value;

const MASK: &str = "…";

/// Query and fragment parameters whose values are secrets, by name (compared without
/// case, `-` or `_`): names holding one of these words...
const SECRET_WORDS: [&str; 10] = [
    "token",
    "secret",
    "password",
    "passwd",
    "signature",
    "credential",
    "apikey",
    "accesskey",
    "privatekey",
    "sessionkey",
];

/// ...and names that are one of these.
const SECRET_NAMES: [&str; 10] = [
    "key", "sig", "auth", "code", "pass", "pwd", "jwt", "session", "sid", "ticket",
];

/// Whether a name (of a parameter, a header, a variable) says its value is a secret.
pub fn is_secret(name: &str) -> bool {
    let name = plain(name);
    SECRET_NAMES.contains(&name.as_str()) || SECRET_WORDS.iter().any(|w| name.contains(w))
}

/// Headers whose whole value is a credential, whatever their name says otherwise.
const CREDENTIAL_HEADERS: [&str; 4] =
    ["authorization", "proxyauthorization", "cookie", "setcookie"];

/// A header's value as it may be shown: masked when the header carries a credential. An
/// `Authorization` value keeps its scheme (`Bearer …`), which tells how one authenticates
/// and nothing more.
pub fn header(name: &str, value: &str) -> String {
    if !is_credential_header(name) {
        return urls_in(value);
    }
    match value.trim().split_once(' ') {
        Some((scheme, _)) if plain(name).ends_with("authorization") => {
            format!("{scheme} {MASK}")
        }
        _ => MASK.to_owned(),
    }
}

/// Whether a header's value is a credential, by its name.
pub fn is_credential_header(name: &str) -> bool {
    CREDENTIAL_HEADERS.contains(&plain(name).as_str()) || is_secret(name)
}

/// A name lowercased without separators, as the lists above spell names.
fn plain(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The address with any user name and password, and the values of its secret
/// parameters (in the query or the fragment), masked.
pub fn url(address: &str) -> String {
    // The authority follows `scheme://` and ends at the path, query or fragment.
    let (head, rest) = match address.find("://") {
        Some(at) => address.split_at(at + 3),
        None => ("", address),
    };
    let (authority, rest) = if head.is_empty() {
        ("", rest)
    } else {
        rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()))
    };
    let authority = match authority.rfind('@') {
        Some(at) => format!("{MASK}{}", &authority[at..]),
        None => authority.to_owned(),
    };
    let (before_fragment, fragment) = match rest.split_once('#') {
        Some((before, fragment)) => (before, Some(fragment)),
        None => (rest, None),
    };
    let mut out = format!("{head}{authority}");
    match before_fragment.split_once('?') {
        Some((path, query)) => {
            out.push_str(path);
            out.push('?');
            out.push_str(&parameters(query));
        }
        None => out.push_str(before_fragment),
    }
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(&parameters(fragment));
    }
    out
}

/// `name=value&...` with the secrets' values masked, everything else as it was.
fn parameters(list: &str) -> String {
    list.split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, value)) if !value.is_empty() && is_secret(name) => {
                format!("{name}={MASK}")
            }
            _ => pair.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The text with every web address in it masked as `url` does.
pub fn urls_in(text: &str) -> String {
    // ASCII lowercasing keeps every byte where it was, so positions found in `lower`
    // are positions in `text`.
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut done = 0;
    while let Some(start) = next_address(&lower, done) {
        let len = text[start..]
            .find(|c: char| c.is_whitespace() || c.is_control() || "\"'<>`\\".contains(c))
            .unwrap_or(text.len() - start);
        // Punctuation that ends a sentence is not part of the address before it.
        let address =
            text[start..start + len].trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
        out.push_str(&text[done..start]);
        out.push_str(&url(address));
        done = start + address.len();
    }
    out.push_str(&text[done..]);
    out
}

/// The JSON with every web address in its strings masked as `url` does.
pub fn json(value: Value) -> Value {
    match value {
        Value::String(text) => Value::String(urls_in(&text)),
        Value::Array(items) => Value::Array(items.into_iter().map(json).collect()),
        Value::Object(members) => Value::Object(
            members
                .into_iter()
                .map(|(name, value)| (name, json(value)))
                .collect(),
        ),
        other => other,
    }
}

/// Where the next `http://` or `https://` address starts at or after `from`.
fn next_address(lower: &str, from: usize) -> Option<usize> {
    ["http://", "https://"]
        .iter()
        .filter_map(|scheme| lower[from..].find(scheme).map(|at| from + at))
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_parameters_are_masked_and_the_rest_is_kept_as_written() {
        assert_eq!(
            url("https://h.example/mcp?token=abc&page=2"),
            "https://h.example/mcp?token=…&page=2"
        );
        assert_eq!(
            url("https://h/cb?Access_Token=a&state=x&X-Amz-Signature=f00&api-key=k&sig=s&key=v"),
            "https://h/cb?Access_Token=…&state=x&X-Amz-Signature=…&api-key=…&sig=…&key=…"
        );
        assert_eq!(
            url("https://h/cb#access_token=a&state=x"),
            "https://h/cb#access_token=…&state=x"
        );
        // Nothing secret: unchanged, even what does not parse as a URL.
        for plain in [
            "https://h.example/a%20b?q=rust&page=2#top",
            "https://h/?monkey=1&token=",
            "not a url?token",
        ] {
            assert_eq!(url(plain), plain);
        }
    }

    #[test]
    fn credential_headers_are_masked_keeping_only_the_scheme() {
        assert_eq!(header("Authorization", "Bearer abc.def"), "Bearer …");
        assert_eq!(header("Proxy-Authorization", "Basic dXNlcg=="), "Basic …");
        assert_eq!(header("authorization", "abc"), "…");
        assert_eq!(header("X-API-Key", "k-123"), "…");
        assert_eq!(header("Cookie", "sid=1"), "…");
        assert_eq!(header("X-Client", "switchboard"), "switchboard");
        assert_eq!(
            header("Referer", "https://h/?token=t"),
            "https://h/?token=…"
        );
    }

    #[test]
    fn a_user_name_and_password_are_masked_whatever_they_hold() {
        assert_eq!(url("https://user:pass@h/"), "https://…@h/");
        assert_eq!(url("https://ghp_abc@h?x=1"), "https://…@h?x=1");
        assert_eq!(url("https://h/a@b"), "https://h/a@b", "an @ in the path");
    }

    #[test]
    fn every_address_in_a_text_is_masked() {
        assert_eq!(
            urls_in(
                "could not connect to HTTP://h:1/mcp?token=abc: refused (see https://x/?key=k)."
            ),
            "could not connect to HTTP://h:1/mcp?token=…: refused (see https://x/?key=…)."
        );
        assert_eq!(
            urls_in(r#"invalid URL "https://u:p@h/?sig=1""#),
            r#"invalid URL "https://…@h/?sig=…""#
        );
        assert_eq!(urls_in("no address here"), "no address here");
        assert_eq!(
            json(
                serde_json::json!({"websiteUrl": "https://h/?token=t", "n": [1, "https://h/?sig=s"]})
            ),
            serde_json::json!({"websiteUrl": "https://h/?token=…", "n": [1, "https://h/?sig=…"]})
        );
        assert_eq!(
            urls_in("ünïcode https://h/?code=ß"),
            "ünïcode https://h/?code=…"
        );
    }
}
