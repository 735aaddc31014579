//! A local model's thinking written inline: reasoning models served by Ollama's older
//! releases, llama.cpp or LM Studio without a reasoning parser begin their answer with
//! `<think>…</think>`. That opening block is their reasoning, not their answer; only a
//! block at the very start counts (the answer may well speak of a `<think>` tag).

use crate::model::Event;

const OPEN: &str = "<think>";
const CLOSE: &str = "</think>";

/// Where a stream's text is, as it is split.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Nothing but white space yet: a `<think>` may still open.
    #[default]
    Start,
    Thinking,
    Answer,
}

/// Splits a stream's text into reasoning and answer, across the pieces it comes in.
#[derive(Debug, Default)]
pub(crate) struct ThinkSplitter {
    place: Place,
    /// Text held back: it may be the start of a tag.
    held: String,
}

impl ThinkSplitter {
    /// The events for the next piece of the model's text.
    pub fn push(&mut self, text: &str, out: &mut Vec<Event>) {
        self.held.push_str(text);
        loop {
            match self.place {
                Place::Answer => {
                    let text = std::mem::take(&mut self.held);
                    if !text.is_empty() {
                        out.push(Event::TextDelta(text));
                    }
                    return;
                }
                Place::Start => {
                    let trimmed = self.held.trim_start();
                    if let Some(rest) = trimmed.strip_prefix(OPEN) {
                        self.held = rest.trim_start().to_owned();
                        self.place = Place::Thinking;
                    } else if OPEN.starts_with(trimmed) {
                        return; // white space, or the start of `<think>`: wait for more
                    } else {
                        self.place = Place::Answer;
                    }
                }
                Place::Thinking => match self.held.find(CLOSE) {
                    Some(end) => {
                        let thought = self.held[..end].trim_end().to_owned();
                        if !thought.is_empty() {
                            out.push(Event::ReasoningDelta(thought));
                        }
                        self.held = self.held[end + CLOSE.len()..].trim_start().to_owned();
                        self.place = Place::Answer;
                    }
                    None => {
                        // All but what may be the start of `</think>`, and the white space
                        // before it (which ends the block if the tag comes), is reasoning.
                        let keep = (1..CLOSE.len())
                            .rev()
                            .find(|&n| self.held.ends_with(&CLOSE[..n]))
                            .unwrap_or(0);
                        let upto = self.held[..self.held.len() - keep].trim_end().len();
                        let thought: String = self.held.drain(..upto).collect();
                        if !thought.is_empty() {
                            out.push(Event::ReasoningDelta(thought));
                        }
                        return;
                    }
                },
            }
        }
    }

    /// The stream ended: what was held back is said as what it was taken for.
    pub fn finish(&mut self, out: &mut Vec<Event>) {
        let held = std::mem::take(&mut self.held);
        if held.trim().is_empty() {
            return;
        }
        out.push(match self.place {
            Place::Thinking => Event::ReasoningDelta(held),
            Place::Start | Place::Answer => Event::TextDelta(held),
        });
    }

    /// A whole answer's text split: its reasoning, if it opened with some, and the rest.
    pub fn split(text: &str) -> (Option<String>, String) {
        let mut splitter = Self::default();
        let mut out = Vec::new();
        splitter.push(text, &mut out);
        splitter.finish(&mut out);
        let (mut thought, mut answer) = (String::new(), String::new());
        for event in out {
            match event {
                Event::ReasoningDelta(t) => thought.push_str(&t),
                Event::TextDelta(t) => answer.push_str(&t),
                _ => {}
            }
        }
        ((!thought.is_empty()).then_some(thought), answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn streamed(pieces: &[&str]) -> (String, String) {
        let mut splitter = ThinkSplitter::default();
        let mut out = Vec::new();
        for piece in pieces {
            splitter.push(piece, &mut out);
        }
        splitter.finish(&mut out);
        let (mut thought, mut answer) = (String::new(), String::new());
        for event in out {
            match event {
                Event::ReasoningDelta(t) => thought.push_str(&t),
                Event::TextDelta(t) => answer.push_str(&t),
                _ => panic!("{event:?}"),
            }
        }
        (thought, answer)
    }

    #[test]
    fn an_opening_think_block_is_reasoning_even_cut_through_its_tags() {
        let said = ("Two plus three.".to_owned(), "It is 5.".to_owned());
        assert_eq!(
            streamed(&["<think>\nTwo plus three.\n</think>\n\nIt is 5."]),
            said
        );
        assert_eq!(
            streamed(&["\n<thi", "nk>Two plus", " three.</th", "ink>", "It is 5."]),
            said
        );
        assert_eq!(
            ThinkSplitter::split("<think>Two plus three.</think>It is 5."),
            (Some("Two plus three.".to_owned()), "It is 5.".to_owned())
        );
    }

    #[test]
    fn a_think_tag_past_the_start_is_the_answers_own() {
        let text = "Write <think> to open the block, and </think> to close it.";
        assert_eq!(
            streamed(&[
                "Write <th",
                "ink> to open the block, and </think> to close it."
            ]),
            (String::new(), text.to_owned())
        );
        assert_eq!(ThinkSplitter::split("<"), (None, "<".to_owned()));
        assert_eq!(
            streamed(&["<think>unfinished"]),
            ("unfinished".to_owned(), String::new())
        );
    }
}
