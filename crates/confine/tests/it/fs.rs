//! The file system allow-list.

use std::fs;

use crate::{arg, confine, run, text};

/// One folder not given to the sandbox, holding the write, read and outside folders: so
/// `write/../outside` exists and names a real place.
struct Tree {
    _base: tempfile::TempDir,
    write: std::path::PathBuf,
    read: std::path::PathBuf,
    outside: std::path::PathBuf,
}

fn tree() -> Tree {
    let base = tempfile::tempdir().expect("a temporary folder");
    let [write, read, outside] = ["write", "read", "outside"].map(|name| base.path().join(name));
    for dir in [&write, &read, &outside] {
        fs::create_dir(dir).expect("a folder");
    }
    fs::write(write.join("notes.txt"), "old notes\n").expect("a file");
    fs::write(read.join("config.txt"), "the config\n").expect("a file");
    fs::write(outside.join("secret.txt"), "the secret\n").expect("a file");
    Tree {
        _base: base,
        write,
        read,
        outside,
    }
}

/// Each line of `script` is run on its own and reported as `label=STATUS`.
fn statuses(output: &std::process::Output) -> Vec<(String, i32)> {
    text(&output.stdout)
        .lines()
        .filter_map(|line| line.split_once('='))
        .filter_map(|(label, status)| Some((label.to_owned(), status.parse().ok()?)))
        .collect()
}

#[test]
fn a_write_folder_is_read_and_written_and_a_read_folder_only_read() {
    let tree = tree();
    let (write, read) = (arg(&tree.write), arg(&tree.read));
    let script = format!(
        "cat {write}/notes.txt; echo read_write=$?
         echo new notes > {write}/notes.txt; echo write_write=$?
         echo made > {write}/made.txt; echo make_write=$?
         mkdir {write}/sub && mv {write}/made.txt {write}/sub/; echo rename_write=$?
         cat {read}/config.txt; echo read_read=$?
         echo changed > {read}/config.txt; echo write_read=$?
         echo made > {read}/made.txt; echo make_read=$?
         rm {read}/config.txt; echo remove_read=$?"
    );
    let output = run(confine().args([
        "--write", write, "--read", read, "--", "/bin/sh", "-c", &script,
    ]));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains("old notes") && stdout.contains("the config"),
        "{stdout}"
    );
    let expected = [
        ("read_write", true),
        ("write_write", true),
        ("make_write", true),
        ("rename_write", true),
        ("read_read", true),
        ("write_read", false),
        ("make_read", false),
        ("remove_read", false),
    ];
    let got = statuses(&output);
    for (label, allowed) in expected {
        let status = got.iter().find(|(l, _)| l == label).map(|(_, s)| *s);
        assert_eq!(
            status.map(|s| s == 0),
            Some(allowed),
            "{label}: {got:?}\n{}",
            text(&output.stderr)
        );
    }
    assert!(
        text(&output.stderr).contains("Permission denied"),
        "{}",
        text(&output.stderr)
    );
    assert_eq!(
        fs::read_to_string(tree.write.join("notes.txt"))
            .ok()
            .as_deref(),
        Some("new notes\n")
    );
    assert!(tree.write.join("sub/made.txt").exists());
    assert_eq!(
        fs::read_to_string(tree.read.join("config.txt"))
            .ok()
            .as_deref(),
        Some("the config\n")
    );
    assert!(!tree.read.join("made.txt").exists());
}

#[test]
fn nothing_outside_the_listed_paths_is_read_or_written_by_any_route() {
    let tree = tree();
    let (write, outside) = (arg(&tree.write), arg(&tree.outside));
    // A link planted before the server starts, as a hostile project could have.
    std::os::unix::fs::symlink(&tree.outside, tree.write.join("planted")).expect("a symlink");
    let script = format!(
        "cat {outside}/secret.txt; echo direct_read=$?
         ls {outside}; echo direct_list=$?
         echo x > {outside}/new.txt; echo direct_make=$?
         cat {write}/../outside/secret.txt; echo dotdot_read=$?
         echo x > {write}/../outside/dotdot.txt; echo dotdot_make=$?
         cat {write}/planted/secret.txt; echo planted_read=$?
         echo x > {write}/planted/planted.txt; echo planted_make=$?
         ln -s {outside} {write}/made; echo made_link=$?
         cat {write}/made/secret.txt; echo made_read=$?
         ln {outside}/secret.txt {write}/hardlink; echo hardlink=$?
         mv {outside}/secret.txt {write}/; echo move_in=$?"
    );
    let output = run(confine().args(["--write", write, "--", "/bin/sh", "-c", &script]));
    let got = statuses(&output);
    assert_eq!(got.len(), 11, "{got:?}\n{}", text(&output.stderr));
    for (label, status) in &got {
        // Making a symlink inside the write folder is fine; following it out is not.
        let allowed = label == "made_link";
        assert_eq!(
            *status == 0,
            allowed,
            "{label}: {got:?}\n{}",
            text(&output.stderr)
        );
    }
    assert!(
        !text(&output.stdout).contains("the secret"),
        "{}",
        text(&output.stdout)
    );
    assert!(
        text(&output.stderr).contains("Permission denied"),
        "{}",
        text(&output.stderr)
    );
    let mut left: Vec<_> = fs::read_dir(&tree.outside)
        .expect("the outside folder")
        .map(|entry| entry.expect("an entry").file_name())
        .collect();
    left.sort();
    assert_eq!(left, ["secret.txt"]);
    assert!(!tree.write.join("secret.txt").exists() && !tree.write.join("hardlink").exists());
}

#[test]
fn missing_paths_are_skipped_and_the_directory_and_environment_are_kept() {
    let tree = tree();
    let output = run(confine()
        .args([
            "--read",
            "/etc/no-such-file.conf",
            "--write",
            arg(&tree.write),
        ])
        .args(["--", "/bin/sh", "-c", "pwd; echo \"$SWITCHBOARD_TEST\""])
        .current_dir(&tree.write)
        .env("SWITCHBOARD_TEST", "kept"));
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        format!("{}\nkept\n", tree.write.display())
    );
}

#[test]
fn a_single_file_may_be_given() {
    let tree = tree();
    let file = tree.outside.join("secret.txt");
    // The file alone: not written, and its folder not listed.
    let script = format!(
        "cat {0}; echo x >> {0}; ls {1}",
        arg(&file),
        arg(&tree.outside)
    );
    let output = run(confine().args(["--read", arg(&file), "--", "/bin/sh", "-c", &script]));
    assert_eq!(
        text(&output.stdout),
        "the secret\n",
        "{}",
        text(&output.stderr)
    );
    assert_eq!(
        fs::read_to_string(&file).ok().as_deref(),
        Some("the secret\n")
    );
}
