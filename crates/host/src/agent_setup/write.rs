//! Replacing an app's configuration file atomically: a temporary file in the same folder,
//! written and flushed, given the file's permissions, then renamed over it, so that the
//! app (or a crash) sees the old file or the new one, never half of one. A file reached
//! through a symbolic link (dotfiles kept elsewhere) is replaced where the link leads,
//! the link kept.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `text` as the whole of `path`, creating its folder if need be.
pub(super) fn replace(path: &Path, text: &str) -> io::Result<()> {
    let target = resolved(path)?;
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    // A name no other writer uses, removed again if anything below fails.
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)?;
    match fs::metadata(&target) {
        Ok(existing) => temp.as_file().set_permissions(existing.permissions())?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    temp.write_all(text.as_bytes())?;
    temp.as_file().sync_all()?;
    temp.persist(&target).map_err(|e| e.error)?;
    // The rename itself is durable only once the folder is.
    File::open(dir).and_then(|d| d.sync_all())
}

/// Where `path` leads through symbolic links; itself when it does not exist yet.
fn resolved(path: &Path) -> io::Result<PathBuf> {
    match fs::canonicalize(path) {
        Ok(target) => Ok(target),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(path.to_owned()),
        Err(e) => Err(e),
    }
}
