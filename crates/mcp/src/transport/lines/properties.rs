//! Properties of the line framing: the lines read are those of the bytes split at each `\n`,
//! however the bytes arrive, and no line beyond the bound is ever held.

use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use proptest::prelude::*;
use proptest::test_runner::TestCaseResult;
use tokio::io::{AsyncRead, BufReader, ReadBuf};

use super::{Line, Skipping, read_line};
use crate::fuzz::{Chunking, block_on, chunking, fuzz, soup};

/// What one call of `read_line` gave.
#[derive(Debug, PartialEq)]
enum Read {
    Line(Vec<u8>),
    TooLong(usize),
}

/// A pipe that hands over one chunk (or what fits of it) per read.
struct Pipe(VecDeque<Vec<u8>>);

impl AsyncRead for Pipe {
    fn poll_read(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if let Some(chunk) = self.0.front_mut() {
            let n = chunk.len().min(buf.remaining());
            buf.put_slice(&chunk[..n]);
            chunk.drain(..n);
            if chunk.is_empty() {
                self.0.pop_front();
            }
        }
        Poll::Ready(Ok(()))
    }
}

/// Every line of `input` as `read_line` gives it, read through a buffer of `capacity`.
fn read_all(input: &[u8], chunking: &Chunking, capacity: usize, max: usize) -> Vec<Read> {
    let mut reader = BufReader::with_capacity(capacity, Pipe(chunking.split(input).into()));
    let mut buf = Vec::new();
    let mut out = Vec::new();
    let mut skipping = Skipping::default();
    // A line told as passing the bound before its end came.
    let mut overflowing = false;
    block_on(async {
        loop {
            let line = read_line(&mut reader, &mut buf, max, &mut skipping)
                .await
                .expect("no I/O error");
            // The buffer grows only to hold a line within the bound; a `Vec` at most doubles
            // its capacity when it grows, from at least 8 bytes.
            assert!(buf.len() <= max, "{} bytes held, bound {max}", buf.len());
            assert!(buf.capacity() <= max.saturating_mul(2).max(8));
            match line {
                Line::Complete | Line::Last => {
                    assert!(!overflowing, "an overflowing line ended as a line");
                    out.push(Read::Line(buf.clone()));
                }
                Line::Overflowing { head } => {
                    assert!(
                        !overflowing && !head.is_empty(),
                        "told twice, or with nothing"
                    );
                    overflowing = true;
                }
                Line::TooLong { bytes, .. } => {
                    overflowing = false;
                    out.push(Read::TooLong(bytes));
                }
                Line::Eof => return out,
            }
            assert!(out.len() <= input.len(), "more lines than bytes");
        }
    })
}

/// The lines as documented: `input` split at each `\n`, a trailing `\r` removed, a final
/// line without `\n` counted, and a line over `max` bytes reported by its length (and told
/// as it passes the bound, if its end is not in sight yet).
fn expected(input: &[u8], max: usize) -> Vec<Read> {
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    // What follows the last `\n` (or an empty input) is a line only if it is not empty.
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
        .into_iter()
        .flat_map(|line| match line {
            _ if line.len() > max => vec![Read::TooLong(line.len())],
            [head @ .., b'\r'] => vec![Read::Line(head.to_vec())],
            _ => vec![Read::Line(line.to_vec())],
        })
        .collect()
}

/// Input rich in line ends and overlong lines.
fn input() -> impl Strategy<Value = Vec<u8>> {
    soup(&[
        b"\n",
        b"\r",
        b"\r\n",
        b"\n\n",
        b"{\"jsonrpc\":\"2.0\",\"method\":\"m\"}",
        b"0123456789abcdef0123456789abcdef",
    ])
}

fn bound() -> impl Strategy<Value = usize> {
    prop_oneof![4 => 0..48usize, 1 => Just(usize::MAX)]
}

fn check(input: &[u8], chunking: &Chunking, capacity: usize, max: usize) -> TestCaseResult {
    prop_assert_eq!(
        read_all(input, chunking, capacity, max),
        expected(input, max)
    );
    Ok(())
}

proptest! {
    #[test]
    fn lines_are_the_input_split_at_newlines_however_it_arrives(
        input in input(),
        chunking in chunking(),
        capacity in 1..40usize,
        max in bound(),
    ) {
        check(&input, &chunking, capacity, max)?;
    }
}

#[test]
fn a_last_line_without_newline_loses_its_carriage_return_too() {
    let lines = read_all(b"{}\r", &Chunking::Every(1), 8, 100);
    assert_eq!(lines, [Read::Line(b"{}".to_vec())]);
}

#[test]
#[ignore = "long: see crate::fuzz"]
fn fuzz_line_framing() {
    let inputs = (input(), chunking(), 1..40usize, bound());
    fuzz(
        "line framing",
        inputs,
        |(input, chunking, capacity, max)| check(&input, &chunking, capacity, max),
    );
}
