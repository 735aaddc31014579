//! `file://` URIs for local folders, as roots are given to servers.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// The `file://` URI of an absolute path, percent-encoding every byte outside the
/// unreserved set and `/`.
pub fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for &byte in path.as_os_str().as_bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            uri.push(char::from(byte));
        } else {
            let _ = write!(uri, "%{byte:02X}");
        }
    }
    uri
}

/// The local path of a `file://` URI (the inverse of [`file_uri`]); None for other URIs.
pub fn file_path(uri: &str) -> Option<PathBuf> {
    let encoded = uri.strip_prefix("file://")?.as_bytes();
    let mut bytes = Vec::with_capacity(encoded.len());
    let mut i = 0;
    while i < encoded.len() {
        let hex = encoded
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (encoded[i], hex) {
            (b'%', Some(byte)) => {
                bytes.push(byte);
                i += 3;
            }
            (byte, _) => {
                bytes.push(byte);
                i += 1;
            }
        }
    }
    Some(PathBuf::from(OsStr::from_bytes(&bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_comes_back_from_its_uri() {
        let path = Path::new("/tmp/my dir/é#?%");
        assert_eq!(file_path(&file_uri(path)).as_deref(), Some(path));
        assert_eq!(file_path("https://example.com/"), None);
    }

    #[test]
    fn plain_paths_stay_readable() {
        assert_eq!(file_uri(Path::new("/home/ada/src")), "file:///home/ada/src");
    }

    #[test]
    fn spaces_unicode_and_reserved_characters_are_encoded() {
        assert_eq!(
            file_uri(Path::new("/tmp/my dir/é#?%")),
            "file:///tmp/my%20dir/%C3%A9%23%3F%25"
        );
    }
}
