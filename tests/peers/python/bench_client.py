"""Benchmark client on the official Python SDK (mcp 2.3.0), measured beside Switchboard's engine.

The Rust benchmark (crates/mcp/benches/echo.rs) runs it against the same server as its own
client and reads the one JSON line it prints on stdout:

    python bench_client.py echo --calls N --in-flight K --text T (--http URL | --stdio CMD ARG...)
        {"client": ..., "sequential": {"latencies_us": [...], "wall_s": s, "cpu_s": s},
         "concurrent": {"latencies_us": [...], "wall_s": s, "cpu_s": s}}

    python bench_client.py read --uri URI (--http URL | --stdio CMD ARG...)
        {"client": ..., "read": {"bytes": n, "seconds": s, "rss_before": b, "peak_rss": b}}

CPU time is this process's (user + system, every thread); memory is its own too (VmRSS
before the read, VmHWM after it), as the other clients report theirs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import asynccontextmanager
from importlib.metadata import version
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

CLIENT = f"Python SDK (mcp {version('mcp')})"
WARM_UP = 200


def memory() -> dict[str, int]:
    """VmRSS and VmHWM of this process, in bytes."""
    fields: dict[str, int] = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                fields[key] = int(value.split()[0]) * 1024
    return fields


@asynccontextmanager
async def session(args: argparse.Namespace):
    if args.http:
        # The SDK bounds one event to 1 MiB by default; a large read needs more.
        transport = streamable_http_client(args.http, max_sse_event_size=None)
    else:
        program, *rest = args.stdio
        transport = stdio_client(StdioServerParameters(command=program, args=rest))
    async with transport as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()
            yield client


async def call(client: ClientSession, text: str) -> float:
    started = time.perf_counter()
    result = await client.call_tool("echo", {"text": text})
    elapsed = time.perf_counter() - started
    if result.is_error:
        raise SystemExit(f"echo failed: {result}")
    return elapsed * 1e6


def run(latencies: list[float], started: float, cpu: float) -> dict[str, Any]:
    return {"latencies_us": latencies, "wall_s": time.perf_counter() - started, "cpu_s": time.process_time() - cpu}


async def sequential(client: ClientSession, calls: int, text: str) -> dict[str, Any]:
    started, cpu = time.perf_counter(), time.process_time()
    latencies = [await call(client, text) for _ in range(calls)]
    return run(latencies, started, cpu)


async def concurrent(client: ClientSession, calls: int, in_flight: int, text: str) -> dict[str, Any]:
    latencies: list[float] = []
    remaining = calls

    # A fixed pool of workers keeps exactly `in_flight` calls outstanding until the last ones.
    async def worker() -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            latencies.append(await call(client, text))

    started, cpu = time.perf_counter(), time.process_time()
    async with anyio.create_task_group() as group:
        for _ in range(min(in_flight, calls)):
            group.start_soon(worker)
    return run(latencies, started, cpu)


async def echo(args: argparse.Namespace) -> dict[str, Any]:
    async with session(args) as client:
        await sequential(client, WARM_UP, args.text)
        return {
            "client": CLIENT,
            "sequential": await sequential(client, args.calls, args.text),
            "concurrent": await concurrent(client, args.calls, args.in_flight, args.text),
        }


async def read(args: argparse.Namespace) -> dict[str, Any]:
    async with session(args) as client:
        before = memory()["VmRSS"]
        started = time.perf_counter()
        result = await client.read_resource(args.uri)
        seconds = time.perf_counter() - started
        peak = memory()["VmHWM"]
        size = sum(len(getattr(c, "text", "").encode()) for c in result.contents)
        return {
            "client": CLIENT,
            "read": {"bytes": size, "seconds": seconds, "rss_before": before, "peak_rss": peak},
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["echo", "read"])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--in-flight", type=int, default=64)
    parser.add_argument("--text", default="The quick brown fox jumps over the lazy dog")
    parser.add_argument("--uri")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--http", metavar="URL")
    target.add_argument("--stdio", nargs=argparse.REMAINDER, metavar="CMD")
    args = parser.parse_args()
    if args.mode == "read" and not args.uri:
        parser.error("read needs --uri")
    figures = anyio.run(echo if args.mode == "echo" else read, args)
    sys.stdout.write(json.dumps(figures) + "\n")


if __name__ == "__main__":
    main()
