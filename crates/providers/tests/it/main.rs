//! The integration tests of this crate, one binary: each module was a test file of its own
//! (`cargo test --test it <module>::` runs one).

mod anthropic;
mod common;
mod openai;
mod protocols;
mod sdks;
mod silence_and_stop;
mod stand_in;
