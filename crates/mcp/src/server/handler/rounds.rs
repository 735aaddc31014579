//! Multi round-trip answers (2026-07-28): a server that needs the client's answers before it
//! can finish a request (a form, a sampling, the client's roots) answers it with those
//! questions, `resultType: input_required`, and the client sends the request again with its
//! answers and the state the server gave. A call may also be answered with the task it
//! became, for a client that takes tasks ([`CreatedTask`]).

use serde::{Serialize, Serializer};

use crate::types::{
    CreateTaskResult, InputRequiredResult, RESULT_TYPE_INPUT_REQUIRED, RESULT_TYPE_TASK, TaskHandle,
};

/// The answer to a request a server may answer in rounds: its result, or the questions the
/// client must answer first.
#[derive(Debug, Clone, PartialEq)]
pub enum Rounds<T> {
    /// The request's own result.
    Complete(T),
    /// The questions, by the server's key, and the state the retry sends back.
    InputRequired(InputRequiredResult),
    /// The task the request became: the client asks after it from now on.
    Task(Box<CreatedTask>),
}

/// A task made of a request, as the client's revision tells it.
#[derive(Debug, Clone, PartialEq)]
pub enum CreatedTask {
    /// 2025-11-25: `{task: {…}}`, for a request that asked to be a task.
    Asked(Box<CreateTaskResult>),
    /// The 2026-07-28 extension: the task itself, marked `resultType: "task"`.
    Handle(TaskHandle),
}

impl<T> From<T> for Rounds<T> {
    fn from(result: T) -> Self {
        Self::Complete(result)
    }
}

/// The result as its type says, or the interim one marked as such.
impl<T: Serialize> Serialize for Rounds<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Marked<'a> {
            result_type: &'static str,
            #[serde(flatten)]
            interim: &'a InputRequiredResult,
        }
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct MarkedTask<'a> {
            result_type: &'static str,
            #[serde(flatten)]
            task: &'a TaskHandle,
        }
        match self {
            Self::Complete(result) => result.serialize(serializer),
            Self::InputRequired(interim) => Marked {
                result_type: RESULT_TYPE_INPUT_REQUIRED,
                interim,
            }
            .serialize(serializer),
            Self::Task(created) => match created.as_ref() {
                CreatedTask::Asked(created) => created.serialize(serializer),
                CreatedTask::Handle(task) => MarkedTask {
                    result_type: RESULT_TYPE_TASK,
                    task,
                }
                .serialize(serializer),
            },
        }
    }
}
