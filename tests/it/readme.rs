//! The README in Chinese keeps step with the English one: the same sections, in the same
//! order and at the same levels, and the same code (the two commands among it), byte for
//! byte. A section added to one and not the other fails here.

use std::path::Path;

/// A README's headings (their levels, outside fenced code) and its fenced code blocks.
fn outline(name: &str) -> (Vec<usize>, Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (mut levels, mut blocks) = (Vec::new(), Vec::new());
    let mut block: Option<String> = None;
    for line in text.lines() {
        let fence = line.trim_start().starts_with("```");
        match (&mut block, fence) {
            (None, true) => block = Some(format!("{line}\n")),
            (Some(code), true) => {
                code.push_str(line);
                blocks.extend(block.take());
            }
            (Some(code), false) => {
                code.push_str(line);
                code.push('\n');
            }
            (None, false) => {
                let level = line.chars().take_while(|c| *c == '#').count();
                if level > 0 && line[level..].starts_with(' ') {
                    levels.push(level);
                }
            }
        }
    }
    (levels, blocks)
}

#[test]
fn the_chinese_readme_has_the_english_ones_sections_and_code() {
    let (english_levels, english_code) = outline("README.md");
    let (chinese_levels, chinese_code) = outline("README.zh-CN.md");
    assert!(
        english_levels.len() > 5 && english_code.len() > 5,
        "the English README is read"
    );
    assert_eq!(
        chinese_levels, english_levels,
        "the same sections, at the same levels"
    );
    assert_eq!(
        chinese_code, english_code,
        "the same code, the two commands first"
    );
    assert!(english_code[0].contains("scripts/run") && english_code[0].contains("scripts/test"));
}
