//! Simple checks of the string formats a form field may declare: email, uri, date,
//! date-time. They catch typing mistakes; they are not full RFC parsers.

/// `local@domain.tld`: one `@`, no spaces, dot-separated domain labels of letters, digits
/// and hyphens.
pub(crate) fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| !c.is_whitespace() && !c.is_control() && !"@()<>[]:;,\\\"".contains(c));
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|label| {
            !label.is_empty()
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.chars().all(|c| c.is_alphanumeric() || c == '-')
        });
    local_ok && domain_ok
}

/// An absolute URI (RFC 3986): `scheme:rest`, with no spaces or characters URIs forbid,
/// and `%` only before two hex digits.
pub(crate) fn is_uri(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let mut scheme_chars = scheme.chars();
    let scheme_ok = scheme_chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme_chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    let chars_ok = rest
        .chars()
        .all(|c| !c.is_whitespace() && !c.is_control() && !"<>\"{}|\\^`".contains(c));
    let bytes = rest.as_bytes();
    let escapes_ok = bytes.iter().enumerate().all(|(i, &b)| {
        b != b'%'
            || bytes
                .get(i + 1..i + 3)
                .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit))
    });
    scheme_ok && !rest.is_empty() && chars_ok && escapes_ok
}

/// A full date, `YYYY-MM-DD`, that exists in the calendar (leap years included).
pub(crate) fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(year), Some(month), Some(day)) =
        (digits(&b[0..4]), digits(&b[5..7]), digits(&b[8..10]))
    else {
        return false;
    };
    (1..=12).contains(&month) && day >= 1 && day <= days_in_month(year, month)
}

/// An RFC 3339 date-time: `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
pub(crate) fn is_date_time(s: &str) -> bool {
    let Some((date, time)) = s.split_once(['T', 't']) else {
        return false;
    };
    is_date(date) && is_time(time)
}

/// `HH:MM:SS[.frac]` then `Z` or `±HH:MM`; a leap second (`:60`) is allowed.
fn is_time(s: &str) -> bool {
    let (clock, offset) = match s.find(['Z', 'z', '+', '-']) {
        Some(i) => s.split_at(i),
        None => return false,
    };
    let (hms, fraction) = match clock.split_once('.') {
        Some((hms, fraction)) => (hms, Some(fraction)),
        None => (clock, None),
    };
    let fraction_ok =
        fraction.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()));
    let hms_ok = match hms.as_bytes() {
        [h1, h2, b':', m1, m2, b':', s1, s2] => {
            matches!((digits(&[*h1, *h2]), digits(&[*m1, *m2]), digits(&[*s1, *s2])),
                (Some(h), Some(m), Some(sec)) if h <= 23 && m <= 59 && sec <= 60)
        }
        _ => false,
    };
    let offset_ok = match offset.as_bytes() {
        [b'Z' | b'z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => {
            matches!((digits(&[*h1, *h2]), digits(&[*m1, *m2])),
                (Some(h), Some(m)) if h <= 23 && m <= 59)
        }
        _ => false,
    };
    fraction_ok && hms_ok && offset_ok
}

/// The value of a run of ASCII digits.
fn digits(bytes: &[u8]) -> Option<u32> {
    bytes.iter().try_fold(0u32, |n, &b| {
        b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
    })
}

fn days_in_month(year: u32, month: u32) -> u32 {
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails() {
        for ok in [
            "a@b.co",
            "first.last+tag@mail.example.org",
            "zoë@exämple.de",
        ] {
            assert!(is_email(ok), "{ok}");
        }
        for bad in [
            "", "a", "a@", "@b.co", "a@b", "a b@c.de", "a@b..co", "a@-b.co", ".a@b.co", "a@b@c.de",
            "a@b.co ",
        ] {
            assert!(!is_email(bad), "{bad}");
        }
    }

    #[test]
    fn uris() {
        for ok in [
            "https://example.com",
            "mailto:a@b.co",
            "urn:isbn:0451450523",
            "file:///tmp/a%20b",
            "x+y.z-w:v",
        ] {
            assert!(is_uri(ok), "{ok}");
        }
        for bad in [
            "",
            "example.com",
            "://x",
            "1http://x",
            "http://a b",
            "http:",
            "http://x/%zz",
            "http://x/%2",
            "http://x/<y>",
        ] {
            assert!(!is_uri(bad), "{bad}");
        }
    }

    #[test]
    fn dates() {
        for ok in ["2025-01-31", "2000-02-29", "2024-02-29", "1999-12-31"] {
            assert!(is_date(ok), "{ok}");
        }
        for bad in [
            "",
            "2025-1-31",
            "2025-13-01",
            "2025-00-10",
            "2025-04-31",
            "1900-02-29",
            "2023-02-29",
            "2025/01/31",
            "2025-01-3x",
            "２025-01-01",
        ] {
            assert!(!is_date(bad), "{bad}");
        }
    }

    #[test]
    fn date_times() {
        for ok in [
            "2025-01-31T09:30:00Z",
            "2025-01-31t09:30:00z",
            "2025-01-31T23:59:60.123+05:30",
            "2025-01-31T00:00:00-08:00",
        ] {
            assert!(is_date_time(ok), "{ok}");
        }
        for bad in [
            "2025-01-31",
            "2025-01-31T09:30Z",
            "2025-01-31 09:30:00Z",
            "2025-01-31T24:00:00Z",
            "2025-01-31T09:30:00",
            "2025-01-31T09:30:00.Z",
            "2025-01-31T09:30:00+0800",
            "2025-01-31T09:60:00Z",
            "2025-02-30T09:30:00Z",
        ] {
            assert!(!is_date_time(bad), "{bad}");
        }
    }
}
