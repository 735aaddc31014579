"""Checks request bodies sent to a model provider against the official SDKs' own request
types: `openai.types.chat.CompletionCreateParams{Streaming,NonStreaming}` for
`/v1/chat/completions`, `openai.types.responses.ResponseCreateParams{Streaming,NonStreaming}`
for `/v1/responses` and `anthropic.types.MessageCreateParams{Streaming,NonStreaming}` for
`/v1/messages`, validated by pydantic in strict mode and with every key the types do not
declare refused, at any depth.

The types are those of Anthropic's API version 2026-10-21; a request that names version
2023-06-01 (`anthropic_version`) may also carry that version's sampling parameters. A Chat
Completions assistant message may also carry its `reasoning_content` (a string): DeepSeek's
extension of the protocol, which its API requires back during a round of tool calls (and
llama.cpp's and vLLM's servers take); it is taken out before OpenAI's types judge the rest.

Reads one request per line on stdin, `{"path": ..., "body": ..., "anthropic_version": ...}`,
and answers each with one line: `{"ok": true}` or `{"rejected": "<where>: <why>; ..."}`.
Ends at the end of its input.
Run by `crates/test-support/src/provider_requests.rs`.
"""

import collections.abc
import json
import re
import sys

import pydantic
from anthropic.types import message_create_params
from openai.types.chat import completion_create_params
from openai.types.responses import response_create_params
from typing_extensions import TypedDict, is_typeddict

SDK_TYPES = ("openai.types", "anthropic.types")
# The SDKs' TypedDicts ignore undeclared keys, and their response models (which the
# request unions also take, to pass an answer back) keep them: both are made to refuse.
STRICT = pydantic.ConfigDict(extra="forbid", strict=True, arbitrary_types_allowed=True)


def make_strict():
    models = []
    for name, module in list(sys.modules.items()):
        if not name.startswith(SDK_TYPES):
            continue
        for value in vars(module).values():
            if not isinstance(value, type) or value.__module__ != name:
                continue
            if is_typeddict(value):
                value.__pydantic_config__ = STRICT
            elif issubclass(value, pydantic.BaseModel):
                value.model_config.update(extra="forbid", strict=True)
                models.append(value)
    for model in models:
        model.model_rebuild(force=True)


class SamplingParams(TypedDict, total=False):
    """What a Messages request of API version 2023-06-01 may also say: the SDKs' types are
    those of version 2026-10-21, which refuses these."""

    temperature: float
    top_k: int
    top_p: float


class Messages2023Streaming(message_create_params.MessageCreateParamsStreaming, SamplingParams):
    pass


class Messages2023NonStreaming(message_create_params.MessageCreateParamsNonStreaming, SamplingParams):
    pass


make_strict()
for kind in (SamplingParams, Messages2023Streaming, Messages2023NonStreaming):
    kind.__pydantic_config__ = STRICT

# (path, streamed, Anthropic's API version) -> the type of that request's body.
TYPES = {
    ("/v1/chat/completions", True, None): completion_create_params.CompletionCreateParamsStreaming,
    ("/v1/chat/completions", False, None): completion_create_params.CompletionCreateParamsNonStreaming,
    ("/v1/responses", True, None): response_create_params.ResponseCreateParamsStreaming,
    ("/v1/responses", False, None): response_create_params.ResponseCreateParamsNonStreaming,
    ("/v1/messages", True, None): message_create_params.MessageCreateParamsStreaming,
    ("/v1/messages", False, None): message_create_params.MessageCreateParamsNonStreaming,
    ("/v1/messages", True, "2023-06-01"): Messages2023Streaming,
    ("/v1/messages", False, "2023-06-01"): Messages2023NonStreaming,
}
ADAPTERS = {key: pydantic.TypeAdapter(kind) for key, kind in TYPES.items()}
MAX_REASONS = 8


def drain(value, where):
    """Pydantic validates an `Iterable` field lazily, as it is read: read them all."""
    if isinstance(value, dict):
        for key, item in value.items():
            drain(item, where + (key,))
    elif isinstance(value, (list, tuple)):
        for n, item in enumerate(value):
            drain(item, where + (n,))
    elif isinstance(value, collections.abc.Iterator):
        try:
            for n, item in enumerate(value):
                drain(item, where + (n,))
        except pydantic.ValidationError as e:
            raise Rejected(where, e) from None


class Rejected(Exception):
    def __init__(self, where, error):
        super().__init__()
        self.where = where
        self.error = error


def kind_label(part):
    """Whether a part of an error's place is pydantic's name for a union member of a kind
    (`str`, `list[...]`) rather than a key, an index or a type's own name."""
    return isinstance(part, str) and (part in ("str", "int", "float", "bool") or re.match(r"^[a-z-]+\[", part))


def reasons(where, error):
    """The errors of the union members a value meant to be (those whose `type` or `role`
    tag it has, and not those of another kind of value, as a string for a list), each
    with its place in the body."""
    errors = error.errors()
    not_meant = [
        e["loc"][:-1]
        for e in errors
        if e["type"] == "literal_error" and e["loc"] and e["loc"][-1] in ("type", "role")
    ] + [e["loc"] for e in errors if e["loc"] and kind_label(e["loc"][-1]) and e["type"].endswith("_type")]
    meant = [e for e in errors if not any(e["loc"][: len(p)] == p for p in not_meant)]
    lines = []
    for e in meant or errors:
        # The name of a list's or a union's member adds nothing to where it is.
        place = ".".join(str(part) for part in where + tuple(e["loc"]) if not kind_label(part) or "[" not in part)
        lines.append(f"{place}: {e['msg']} (got {json.dumps(e['input'], default=repr)[:80]})")
    hidden = len(lines) - MAX_REASONS
    return "; ".join(lines[:MAX_REASONS]) + (f"; and {hidden} more" if hidden > 0 else "")


def without_extensions(path, body):
    """The body without what OpenAI-compatible servers add to the protocol that OpenAI's
    types do not declare: an assistant message's `reasoning_content`, when it is a string."""
    if path != "/v1/chat/completions" or not isinstance(body.get("messages"), list):
        return body
    messages = []
    for message in body["messages"]:
        if (
            isinstance(message, dict)
            and message.get("role") == "assistant"
            and isinstance(message.get("reasoning_content"), str)
        ):
            message = {k: v for k, v in message.items() if k != "reasoning_content"}
        messages.append(message)
    return {**body, "messages": messages}


def check(request):
    body = request.get("body")
    if not isinstance(body, dict):
        return f"the body is not a JSON object: {json.dumps(body)[:80]}"
    body = without_extensions(request.get("path"), body)
    path, streamed = request.get("path"), body.get("stream") is True
    adapter = ADAPTERS.get((path, streamed, request.get("anthropic_version")))
    adapter = adapter or ADAPTERS.get((path, streamed, None))
    if adapter is None:
        return f"no request type for the path {request.get('path')!r}"
    try:
        drain(adapter.validate_python(body), ())
    except pydantic.ValidationError as e:
        return reasons((), e)
    except Rejected as e:
        return reasons(e.where, e.error)
    return None


def main():
    for line in sys.stdin:
        rejected = check(json.loads(line))
        answer = {"ok": True} if rejected is None else {"rejected": rejected}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
