//! Replacing a whole file atomically, for every file Switchboard writes that a person (or
//! another app) also reads: its own configuration and the agents' configuration files.
//!
//! The text goes to a temporary file in the same folder (`tempfile`'s, of a name no other
//! writer uses, removed again on failure), flushed, then renamed over the file, so that a
//! reader or a crash sees the old file or the new one, never half of one.
//! - A file reached through a symbolic link (dotfiles kept in a repository elsewhere) is
//!   replaced where the link leads, and the link is kept.
//! - An existing file keeps its permissions; a new one is the owner's alone (0600, the
//!   temporary file's own mode), since these files name servers, agents and secrets' keys.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// How many links in a row are followed before giving up, as the kernel does (`ELOOP`).
const MAX_LINKS: usize = 40;

/// Writes `contents` as the whole of `path`, creating its folder if need be.
pub(crate) fn replace(path: &Path, contents: &[u8]) -> io::Result<()> {
    let target = resolved(path)?;
    let dir = folder_of(&target);
    fs::create_dir_all(dir)?;
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    match fs::metadata(&target) {
        Ok(existing) => temp.as_file().set_permissions(existing.permissions())?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    temp.write_all(contents)?;
    temp.as_file().sync_all()?;
    temp.persist(&target).map_err(|e| e.error)?;
    // The rename itself is durable only once the folder is.
    File::open(dir).and_then(|d| d.sync_all())
}

/// The folder that holds `path`.
pub(crate) fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Where `path` leads through symbolic links, even to a file that does not exist yet (a
/// link made before its target, which `canonicalize` refuses); `path` itself when it is
/// no link. Only the file's own links matter: a rename works through linked folders.
fn resolved(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_owned();
    for _ in 0..MAX_LINKS {
        match fs::read_link(&path) {
            // A relative link leads from the folder the link is in.
            Ok(leads_to) => path = folder_of(&path).join(leads_to),
            // Not a link (EINVAL), or nothing there yet.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::InvalidInput | io::ErrorKind::NotFound
                ) =>
            {
                return Ok(path);
            }
            Err(e) => return Err(e),
        }
    }
    Err(nix::errno::Errno::ELOOP.into())
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{PermissionsExt, symlink};

    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_new_file_is_the_owners_alone_and_nothing_else_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("new/er/file.json");
        replace(&path, b"{}\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "{}\n");
        assert_eq!(mode(&path), 0o600);
        assert_eq!(names_in(path.parent().unwrap()), ["file.json"]);
    }

    #[test]
    fn an_existing_file_keeps_its_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("file.json");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o644)).unwrap();
        replace(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(mode(&path), 0o644);
    }

    #[test]
    fn a_link_is_kept_and_its_target_replaced_even_through_relative_links() {
        let dir = tempfile::tempdir().unwrap();
        let kept = dir.path().join("dotfiles/file.json");
        fs::create_dir_all(kept.parent().unwrap()).unwrap();
        fs::write(&kept, "old").unwrap();
        fs::set_permissions(&kept, fs::Permissions::from_mode(0o640)).unwrap();
        // A link to a link, the second relative to its own folder.
        let middle = dir.path().join("dotfiles/current.json");
        symlink("file.json", &middle).unwrap();
        let link = dir.path().join("app/file.json");
        fs::create_dir_all(link.parent().unwrap()).unwrap();
        symlink(&middle, &link).unwrap();
        replace(&link, b"new").unwrap();
        for l in [&link, &middle] {
            assert!(fs::symlink_metadata(l).unwrap().is_symlink(), "{l:?}");
        }
        assert_eq!(fs::read_to_string(&kept).unwrap(), "new");
        assert_eq!(mode(&kept), 0o640);
        assert_eq!(names_in(link.parent().unwrap()), ["file.json"]);
        assert_eq!(
            names_in(kept.parent().unwrap()),
            ["current.json", "file.json"]
        );
    }

    #[test]
    fn a_link_made_before_its_target_gets_the_target_created() {
        let dir = tempfile::tempdir().unwrap();
        let kept = dir.path().join("dotfiles/file.json");
        let link = dir.path().join("file.json");
        symlink(&kept, &link).unwrap();
        replace(&link, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&kept).unwrap(), "new");
        assert_eq!(mode(&kept), 0o600);
    }

    #[test]
    fn a_loop_of_links_is_refused_and_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        symlink(&b, &a).unwrap();
        symlink(&a, &b).unwrap();
        let refused = replace(&a, b"new").unwrap_err();
        assert_eq!(refused.raw_os_error(), Some(nix::libc::ELOOP));
        assert_eq!(names_in(dir.path()), ["a", "b"]);
    }
}
