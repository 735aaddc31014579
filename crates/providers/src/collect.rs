//! Folds a stream's [`Event`]s into the whole [`Response`], as a host keeps it once the
//! answer is complete.

use crate::model::{AssistantContent, Event, Reasoning, Response, StopReason, Usage};

#[derive(Debug, Default)]
pub struct Collector {
    id: Option<String>,
    model: Option<String>,
    content: Vec<AssistantContent>,
    finish: Option<(StopReason, Option<Usage>)>,
}

impl Collector {
    pub fn push(&mut self, event: &Event) {
        match event {
            Event::Start { id, model } => {
                self.id.clone_from(id);
                self.model.clone_from(model);
            }
            Event::TextDelta(text) => match self.content.last_mut() {
                Some(AssistantContent::Text(last)) => last.push_str(text),
                _ => self.content.push(AssistantContent::Text(text.clone())),
            },
            Event::ReasoningStart => self
                .content
                .push(AssistantContent::Reasoning(Reasoning::default())),
            Event::ReasoningDelta(text) => match self.content.last_mut() {
                Some(AssistantContent::Reasoning(last))
                    if last.signature.is_none() && last.item.is_none() =>
                {
                    last.text.push_str(text);
                }
                _ => self.content.push(AssistantContent::Reasoning(Reasoning {
                    text: text.clone(),
                    ..Reasoning::default()
                })),
            },
            Event::ReasoningSignature(signature) => {
                if let Some(AssistantContent::Reasoning(last)) = self.content.last_mut() {
                    last.signature = Some(signature.clone());
                }
            }
            Event::ReasoningItem(item) => {
                if let Some(AssistantContent::Reasoning(last)) = self.content.last_mut() {
                    last.item = Some(item.clone());
                }
            }
            Event::ReasoningRedacted(data) => {
                self.content.push(AssistantContent::Reasoning(Reasoning {
                    redacted: Some(data.clone()),
                    ..Reasoning::default()
                }));
            }
            Event::ToolCallEnd { call, .. } => {
                self.content.push(AssistantContent::ToolCall(call.clone()));
            }
            Event::ToolCallStart { .. } | Event::ToolCallDelta { .. } => {}
            Event::Finish { stop_reason, usage } => {
                self.finish = Some((stop_reason.clone(), *usage));
            }
        }
    }

    /// The answer, once [`Event::Finish`] came.
    pub fn finish(self) -> Option<Response> {
        let (stop_reason, usage) = self.finish?;
        Some(Response {
            id: self.id,
            model: self.model,
            content: self.content,
            stop_reason,
            usage,
        })
    }
}
