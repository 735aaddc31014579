//! A damaged file is kept, not lost, and does not stop the app: it is moved aside under a
//! name that says when, and a new one is begun in its place.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Whether SQLite found the file is not a database it can read.
pub(super) fn is_damage(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt)
    )
}

/// Renames the file to `<name>.corrupt-<UTC time>` beside it, its journal files with it
/// (they belong to it: a new file must not read them).
pub(super) fn move_aside(path: &Path, now: SystemTime) -> io::Result<PathBuf> {
    let stamped = with_suffix(path, &format!(".corrupt-{}", utc_stamp(now)));
    let mut to = stamped.clone();
    let mut n = 1;
    while to.exists() {
        n += 1;
        to = with_suffix(&stamped, &format!("-{n}"));
    }
    std::fs::rename(path, &to)?;
    for journal in ["-wal", "-shm"] {
        let side = with_suffix(path, journal);
        if side.exists() {
            std::fs::rename(&side, with_suffix(&to, journal))?;
        }
    }
    Ok(to)
}

pub(super) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = OsString::from(path.as_os_str());
    name.push(suffix);
    PathBuf::from(name)
}

/// The time as `YYYYMMDDTHHMMSSZ` (UTC): sorts as it reads, and is a valid file name.
fn utc_stamp(time: SystemTime) -> String {
    let secs = time
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, of_day) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_stamp_is_the_utc_time() {
        let at = |secs| UNIX_EPOCH + Duration::from_secs(secs);
        assert_eq!(utc_stamp(at(0)), "19700101T000000Z");
        assert_eq!(utc_stamp(at(951_825_600)), "20000229T120000Z");
        assert_eq!(utc_stamp(at(1_700_000_000)), "20231114T221320Z");
    }

    #[test]
    fn a_second_move_in_the_same_second_gets_a_name_of_its_own() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("audit.sqlite");
        let now = SystemTime::now();
        std::fs::write(&path, "one").expect("written");
        std::fs::write(with_suffix(&path, "-wal"), "its journal").expect("written");
        let first = move_aside(&path, now).expect("moved");
        std::fs::write(&path, "two").expect("written");
        let second = move_aside(&path, now).expect("moved");
        assert_ne!(first, second);
        assert_eq!(
            std::fs::read_to_string(&second).ok().as_deref(),
            Some("two")
        );
        let journal = std::fs::read_to_string(with_suffix(&first, "-wal"));
        assert_eq!(journal.ok().as_deref(), Some("its journal"));
        assert!(!with_suffix(&path, "-wal").exists());
    }
}
