"""The official `openai` and `anthropic` SDK clients against the stand-in provider.

    provider_sdks.py BASE_URL API_KEY [responses]

Runs the scenarios below in order (the stand-in's script has one turn for each request
that takes one) and prints one JSON object on stdout: for each scenario, what the SDK
parsed, or the exception it raised. Every answer the SDKs read is also validated against
the SDKs' own pydantic types (the SDKs build their objects without validation), so a
field missing or of the wrong type shows as a `validation` error in the report.

With `responses`, it runs instead the scenarios of OpenAI's Responses API
(`RESPONSES_SCENARIOS`), each answer validated as a `Response` and each streamed event as
a `ResponseStreamEvent`.
"""

import json
import sys
import traceback

import anthropic
import openai
import pydantic
from anthropic.types import Message, RawMessageStreamEvent
from openai.types.chat import ChatCompletion, ChatCompletionChunk
from openai.types.responses import Response, ResponseStreamEvent

BASE, KEY = sys.argv[1], sys.argv[2]
MODE = sys.argv[3] if len(sys.argv) > 3 else None

oai = openai.OpenAI(base_url=f"{BASE}/v1", api_key=KEY, max_retries=0)
ant = anthropic.Anthropic(base_url=BASE, api_key=KEY, max_retries=0)

ASK = [{"role": "user", "content": "What is 2 + 3?"}]
OPENAI_TOOL = {
    "type": "function",
    "function": {
        "name": "get-sum",
        "description": "Adds two numbers",
        "parameters": {
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"],
            "additionalProperties": False,
        },
        "strict": True,
    },
}
ANTHROPIC_TOOL = {
    "name": "get-sum",
    "description": "Adds two numbers",
    "input_schema": OPENAI_TOOL["function"]["parameters"],
}
STREAM_EVENT = pydantic.TypeAdapter(RawMessageStreamEvent)
RESPONSE_EVENT = pydantic.TypeAdapter(ResponseStreamEvent)


def validate(model, obj):
    """Validates what the SDK parsed against its declared type; raises if it does not fit."""
    data = obj.to_dict() if hasattr(obj, "to_dict") else obj
    if isinstance(model, pydantic.TypeAdapter):
        model.validate_python(data)
    else:
        model.model_validate(data)


def error_report(e):
    report = {"class": type(e).__name__, "message": getattr(e, "message", str(e))}
    response = getattr(e, "response", None)
    if response is not None:
        report["status"] = response.status_code
        report["retry_after"] = response.headers.get("retry-after")
    report["body"] = getattr(e, "body", None)
    report["code"] = getattr(e, "code", None)
    return report


# --- OpenAI -------------------------------------------------------------------------


def openai_whole_text():
    completion = oai.chat.completions.create(model="gpt-test", messages=ASK, max_tokens=64)
    validate(ChatCompletion, completion)
    choice = completion.choices[0]
    return {
        "id": completion.id,
        "text": choice.message.content,
        "finish_reason": choice.finish_reason,
        "usage": [completion.usage.prompt_tokens, completion.usage.completion_tokens],
    }


def openai_streamed_text():
    stream = oai.chat.completions.create(
        model="gpt-test",
        messages=ASK,
        stream=True,
        stream_options={"include_usage": True},
    )
    pieces, finish, usage, chunks = [], None, None, 0
    for chunk in stream:
        validate(ChatCompletionChunk, chunk)
        chunks += 1
        for choice in chunk.choices:
            if choice.delta.content:
                pieces.append(choice.delta.content)
            finish = choice.finish_reason or finish
        if chunk.usage is not None:
            usage = [chunk.usage.prompt_tokens, chunk.usage.completion_tokens]
    return {"pieces": pieces, "finish_reason": finish, "usage": usage, "chunks": chunks}


def openai_streamed_tool_call():
    deltas, done = [], None
    with oai.chat.completions.stream(
        model="gpt-test", messages=ASK, tools=[OPENAI_TOOL]
    ) as stream:
        for event in stream:
            if event.type == "chunk":
                validate(ChatCompletionChunk, event.chunk)
            elif event.type == "tool_calls.function.arguments.delta":
                deltas.append(event.arguments_delta)
            elif event.type == "tool_calls.function.arguments.done":
                done = {"name": event.name, "arguments": event.arguments, "parsed": event.parsed_arguments}
        final = stream.get_final_completion()
    call = final.choices[0].message.tool_calls[0]
    return {
        "deltas": deltas,
        "done": done,
        "final": {"id": call.id, "name": call.function.name, "arguments": json.loads(call.function.arguments)},
        "finish_reason": final.choices[0].finish_reason,
    }


def openai_tool_result():
    messages = ASK + [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_01", "type": "function", "function": {"name": "get-sum", "arguments": '{"a":2,"b":3}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_01", "content": "5"},
    ]
    completion = oai.chat.completions.create(model="gpt-test", messages=messages, tools=[OPENAI_TOOL])
    validate(ChatCompletion, completion)
    return {"text": completion.choices[0].message.content}


def openai_rate_limited():
    oai.chat.completions.create(model="gpt-test", messages=ASK)


def openai_bad_key():
    openai.OpenAI(base_url=f"{BASE}/v1", api_key="sk-wrong-key-0000", max_retries=0).chat.completions.create(
        model="gpt-test", messages=ASK
    )


def openai_context_too_long():
    oai.chat.completions.create(model="gpt-test", messages=ASK)


def openai_mid_stream_error():
    pieces = []
    for chunk in oai.chat.completions.create(model="gpt-test", messages=ASK, stream=True):
        pieces.extend(c.delta.content for c in chunk.choices if c.delta.content)
    return {"pieces": pieces}


def openai_models():
    return {"ids": [m.id for m in oai.models.list()]}


# --- Anthropic ----------------------------------------------------------------------


def anthropic_whole_text():
    message = ant.messages.create(model="claude-test", max_tokens=64, messages=ASK)
    validate(Message, message)
    return {
        "id": message.id,
        "text": message.content[0].text,
        "stop_reason": message.stop_reason,
        "usage": [message.usage.input_tokens, message.usage.output_tokens],
    }


def anthropic_streamed_text():
    with ant.messages.stream(model="claude-test", max_tokens=64, messages=ASK) as stream:
        pieces = list(stream.text_stream)
        final = stream.get_final_message()
    validate(Message, final)
    return {
        "pieces": pieces,
        "text": final.content[0].text,
        "stop_reason": final.stop_reason,
        "usage": [final.usage.input_tokens, final.usage.output_tokens],
    }


def anthropic_raw_events():
    kinds = []
    for event in ant.messages.create(
        model="claude-test", max_tokens=64, messages=ASK, tools=[ANTHROPIC_TOOL], stream=True
    ):
        validate(STREAM_EVENT, event)
        kinds.append(type(event).__name__)
    return {"events": kinds}


def anthropic_streamed_tool_call():
    partials, snapshots = [], []
    with ant.messages.stream(
        model="claude-test", max_tokens=64, messages=ASK, tools=[ANTHROPIC_TOOL]
    ) as stream:
        for event in stream:
            if event.type == "input_json":
                partials.append(event.partial_json)
                snapshots.append(event.snapshot)
        final = stream.get_final_message()
    validate(Message, final)
    tool_use = [b for b in final.content if b.type == "tool_use"][0]
    return {
        "partials": partials,
        "snapshots": snapshots,
        "final": {"id": tool_use.id, "name": tool_use.name, "input": tool_use.input},
        "stop_reason": final.stop_reason,
    }


def anthropic_tool_result():
    messages = ASK + [
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_01", "name": "get-sum", "input": {"a": 2, "b": 3}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_01", "content": "5"}]},
    ]
    message = ant.messages.create(model="claude-test", max_tokens=64, messages=messages, tools=[ANTHROPIC_TOOL])
    validate(Message, message)
    return {"text": message.content[0].text}


def anthropic_overloaded():
    ant.messages.create(model="claude-test", max_tokens=64, messages=ASK)


def anthropic_rate_limited():
    ant.messages.create(model="claude-test", max_tokens=64, messages=ASK)


def anthropic_context_too_long():
    ant.messages.create(model="claude-test", max_tokens=64, messages=ASK)


def anthropic_mid_stream_error():
    with ant.messages.stream(model="claude-test", max_tokens=64, messages=ASK) as stream:
        return {"pieces": list(stream.text_stream)}


def anthropic_bad_key():
    anthropic.Anthropic(base_url=BASE, api_key="sk-ant-wrong", max_retries=0).messages.create(
        model="claude-test", max_tokens=64, messages=ASK
    )


def anthropic_models():
    return {"ids": [m.id for m in ant.models.list(limit=2)]}


def thinking_and_citations(message):
    """The blocks of an answer that thought (signed) and cited, as the SDK read them."""
    blocks = []
    for block in message.content:
        if block.type == "thinking":
            blocks.append({"thinking": block.thinking, "signature": block.signature})
        else:
            cited = [c.cited_text for c in block.citations or []]
            blocks.append({"text": block.text, "cited": cited})
    return blocks


def anthropic_thinking_and_citations_streamed():
    kinds = []
    with ant.messages.stream(model="claude-test", max_tokens=64, messages=ASK) as stream:
        for event in stream:
            if event.type in ("content_block_delta", "message_start", "message_stop"):
                validate(STREAM_EVENT, event)
            if event.type == "content_block_delta":
                kinds.append(event.delta.type)
        final = stream.get_final_message()
    validate(Message, final)
    return {"deltas": kinds, "blocks": thinking_and_citations(final)}


def anthropic_thinking_and_citations_whole():
    message = ant.messages.create(model="claude-test", max_tokens=64, messages=ASK)
    validate(Message, message)
    return {"blocks": thinking_and_citations(message)}


SCENARIOS = [
    openai_whole_text,  # turn 1
    openai_streamed_text,  # turn 2
    openai_streamed_tool_call,  # turn 3
    openai_tool_result,  # turn 4
    openai_rate_limited,  # turn 5
    openai_bad_key,  # refused before any turn
    openai_context_too_long,  # turn 6
    openai_mid_stream_error,  # turn 7
    openai_models,
    anthropic_whole_text,  # turn 8
    anthropic_streamed_text,  # turn 9
    anthropic_raw_events,  # turn 10
    anthropic_streamed_tool_call,  # turn 11
    anthropic_tool_result,  # turn 12
    anthropic_overloaded,  # turn 13
    anthropic_rate_limited,  # turn 14
    anthropic_context_too_long,  # turn 15
    anthropic_mid_stream_error,  # turn 16
    anthropic_bad_key,  # refused before any turn
    anthropic_models,
    anthropic_thinking_and_citations_streamed,  # turn 17
    anthropic_thinking_and_citations_whole,  # turn 18
]


# --- OpenAI Responses ---------------------------------------------------------------

RESPONSES_TOOL = {"type": "function", **OPENAI_TOOL["function"]}
REASONING = {"include": ["reasoning.encrypted_content"], "reasoning": {"effort": "low", "summary": "auto"}}
# What one scenario read that a later one sends back.
KEPT = {}


def usage_of(response):
    u = response.usage
    details = [u.input_tokens_details.cached_tokens, u.output_tokens_details.reasoning_tokens]
    return [u.input_tokens, u.output_tokens, u.total_tokens] + details


def raw_events(**request):
    """Every event of a streamed answer, each validated as the SDK's event union."""
    events = []
    for event in oai.responses.create(model="gpt-test", stream=True, **request):
        validate(RESPONSE_EVENT, event)
        events.append(event)
    return events


def numbered(events):
    """Whether the events are numbered 0, 1, 2... in order, as OpenAI numbers them."""
    return [e.sequence_number for e in events] == list(range(len(events)))


def last_response(events):
    """The response of the stream's last event, validated, when it brings one."""
    response = getattr(events[-1], "response", None)
    if response is not None:
        validate(Response, response)
    return response


def responses_whole_text():
    response = oai.responses.create(model="gpt-test", input="What is 2 + 3?", max_output_tokens=64)
    validate(Response, response)
    return {
        "id": response.id,
        "text": response.output_text,
        "status": response.status,
        "usage": usage_of(response),
    }


def responses_streamed_text():
    events = raw_events(input=ASK, instructions="Be brief.")
    response = last_response(events)
    return {
        "types": [e.type for e in events],
        "numbered": numbered(events),
        "pieces": [e.delta for e in events if e.type == "response.output_text.delta"],
        "text": response.output_text,
        "instructions": response.instructions,
        "usage": usage_of(response),
    }


def responses_streamed_tool_call():
    deltas, events = [], 0
    with oai.responses.stream(model="gpt-test", input=ASK, tools=[RESPONSES_TOOL]) as stream:
        for event in stream:
            validate(RESPONSE_EVENT, event)
            events += 1
            if event.type == "response.function_call_arguments.delta":
                deltas.append(event.delta)
        final = stream.get_final_response()
    validate(Response, final)
    call = final.output[0]
    return {
        "deltas": deltas,
        "call": {"id": call.id, "call_id": call.call_id, "name": call.name, "arguments": json.loads(call.arguments)},
        "status": final.status,
    }


def sent_back_call(call_id):
    """A function call and its output, as a client sends them back."""
    return [
        {"type": "function_call", "call_id": call_id, "name": "get-sum", "arguments": '{"a":2,"b":3}'},
        {"type": "function_call_output", "call_id": call_id, "output": "5"},
    ]


def responses_tool_result():
    response = oai.responses.create(model="gpt-test", input=ASK + sent_back_call("call_01"), tools=[RESPONSES_TOOL])
    validate(Response, response)
    return {"text": response.output_text}


def responses_reasoning_streamed():
    events = raw_events(input=ASK, tools=[RESPONSES_TOOL], store=False, **REASONING)
    response = last_response(events)
    KEPT["output"] = [item.to_dict() for item in response.output]
    reasoning, call = [e.item for e in events if e.type == "response.output_item.done"]
    return {
        "summary_deltas": [e.delta for e in events if e.type == "response.reasoning_summary_text.delta"],
        "reasoning": {
            "id": reasoning.id,
            "summary": [part.text for part in reasoning.summary],
            "encrypted_content": reasoning.encrypted_content,
        },
        "call": {"call_id": call.call_id, "name": call.name},
        "usage": usage_of(response),
    }


def answered(output):
    """The output of the answer before, sent back with the function call's output."""
    call = next(item for item in output if item["type"] == "function_call")
    return ASK + output + [{"type": "function_call_output", "call_id": call["call_id"], "output": "5"}]


def responses_reasoning_left_out():
    output = [item for item in KEPT["output"] if item["type"] != "reasoning"]
    oai.responses.create(model="gpt-test", input=answered(output), tools=[RESPONSES_TOOL], store=False, **REASONING)


def responses_reasoning_sent_back():
    request = {"input": answered(KEPT["output"]), "tools": [RESPONSES_TOOL], "store": False}
    response = oai.responses.create(model="gpt-test", **request, **REASONING)
    validate(Response, response)
    return {"text": response.output_text}


def responses_reasoning_whole():
    response = oai.responses.create(model="gpt-test", input=ASK, **REASONING)
    validate(Response, response)
    reasoning = response.output[0]
    return {
        "types": [item.type for item in response.output],
        "summary": [part.text for part in reasoning.summary],
        "encrypted_content": reasoning.encrypted_content,
        "text": response.output_text,
    }


def responses_max_tokens():
    events = raw_events(input=ASK, max_output_tokens=16)
    response = last_response(events)
    return {
        "last": events[-1].type,
        "status": response.status,
        "reason": response.incomplete_details.reason,
        "text": response.output_text,
    }


def responses_refusal():
    events = raw_events(input=ASK)
    response = last_response(events)
    part = response.output[0].content[0]
    return {
        "deltas": [e.delta for e in events if e.type == "response.refusal.delta"],
        "done": [e.refusal for e in events if e.type == "response.refusal.done"],
        "part": {"type": part.type, "refusal": part.refusal},
    }


def responses_rate_limited():
    oai.responses.create(model="gpt-test", input=ASK)


def responses_bad_key():
    openai.OpenAI(base_url=f"{BASE}/v1", api_key="sk-wrong-key-0000", max_retries=0).responses.create(
        model="gpt-test", input=ASK
    )


def responses_mid_stream_error():
    events = raw_events(input=ASK)
    error = events[-1]
    return {
        "pieces": [e.delta for e in events if e.type == "response.output_text.delta"],
        "error": {"class": type(error).__name__, "code": error.code, "message": error.message},
        "numbered": numbered(events),
    }


def responses_refused_request():
    oai.responses.create(model="gpt-test", input=ASK, max_output_tokens=8)


RESPONSES_SCENARIOS = [
    responses_whole_text,  # turn 1
    responses_streamed_text,  # turn 2
    responses_streamed_tool_call,  # turn 3
    responses_tool_result,  # turn 4
    responses_reasoning_streamed,  # turn 5
    responses_reasoning_left_out,  # refused before any turn
    responses_reasoning_sent_back,  # turn 6
    responses_reasoning_whole,  # turn 7
    responses_max_tokens,  # turn 8
    responses_refusal,  # turn 9
    responses_rate_limited,  # turn 10
    responses_bad_key,  # refused before any turn
    responses_mid_stream_error,  # turn 11
    responses_refused_request,  # refused before any turn
]


def main():
    report = {}
    for scenario in RESPONSES_SCENARIOS if MODE == "responses" else SCENARIOS:
        try:
            report[scenario.__name__] = {"ok": scenario()}
        except pydantic.ValidationError as e:
            report[scenario.__name__] = {"validation": str(e)}
        except (openai.APIError, anthropic.APIError) as e:
            report[scenario.__name__] = {"raised": error_report(e)}
        except Exception as e:  # anything else is a failure to parse: shown whole
            report[scenario.__name__] = {"crashed": "".join(traceback.format_exception(e))}
    json.dump(report, sys.stdout, default=str)


main()
