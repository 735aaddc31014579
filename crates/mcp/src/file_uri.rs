//! `file://` URIs for local folders, as roots are given to servers.

use std::fmt::Write as _;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

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

#[cfg(test)]
mod tests {
    use super::*;

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
