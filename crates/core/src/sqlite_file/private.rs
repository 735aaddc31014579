//! A kept file is the owner's alone: what was called, decided and said is nobody else's
//! business. The folder is 0700 and the file 0600 before SQLite opens it; SQLite gives its
//! journals (`-wal`, `-shm`) the mode of the file they belong to. A folder or files an
//! older version left readable by others are closed too.

use std::fs::{self, DirBuilder, OpenOptions, Permissions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use crate::atomic_file::folder_of;

use super::aside::with_suffix;

const FOLDER: u32 = 0o700;
const FILE: u32 = 0o600;

/// The sticky bit: a folder every user writes to by design (`/tmp`).
const STICKY: u32 = 0o1000;

/// Makes the folder of `path` and the file itself (empty, which SQLite takes as a new
/// database) the owner's alone, and its journals left from before.
pub(super) fn prepare(path: &Path) -> io::Result<()> {
    let folder = folder_of(path);
    DirBuilder::new()
        .recursive(true)
        .mode(FOLDER)
        .create(folder)?;
    let found = fs::metadata(folder)?;
    // A folder of another user, or one shared by design, is not this file's to close: the
    // file itself still is.
    let own = found.uid() == nix::unistd::getuid().as_raw() && found.mode() & STICKY == 0;
    if own && found.mode() & 0o777 != FOLDER {
        fs::set_permissions(folder, Permissions::from_mode(FOLDER))?;
    }
    OpenOptions::new()
        .append(true)
        .create(true)
        .mode(FILE)
        .open(path)?;
    for file in [
        path.to_owned(),
        with_suffix(path, "-wal"),
        with_suffix(path, "-shm"),
    ] {
        match fs::metadata(&file) {
            Ok(found) if found.mode() & 0o777 != FILE => {
                fs::set_permissions(&file, Permissions::from_mode(FILE))?;
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
