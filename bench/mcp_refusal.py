"""How fast `rawrag mcp` refuses a huge query, and whether `status` answers meanwhile.

Starts the real server on the demo history in a fresh home, twice: over HTTP
(with the home's token) it sends a 1 MiB query, over stdio a 10 MiB one, each
together with a `status` call, RUNS times. The reference, measured in the
same run on the same server, is a `status` call alone: the refusal is
reported as a ratio to it and in seconds.

    .venv/bin/python bench/mcp_refusal.py [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


async def _timed(client: Any, name: str, args: dict) -> tuple[float, Any]:
    started = time.perf_counter()
    result = await client.call_tool(name, args)
    return time.perf_counter() - started, result


async def _measure(client: Any, query_chars: int, runs: int) -> dict[str, Any]:
    await client.call_tool("status", {})  # warm: the first call opens a connection
    alone = [(await _timed(client, "status", {}))[0] for _ in range(runs)]
    refused, beside, line = [], [], ""
    for _ in range(runs):
        (t_huge, huge), (t_status, status) = await asyncio.gather(
            _timed(client, "search", {"query": "q" * query_chars}), _timed(client, "status", {}))
        assert huge.is_error and not status.is_error, (huge, status)
        refused.append(t_huge)
        beside.append(t_status)
        line = huge.content[0].text
    return {"alone": alone, "refused": refused, "beside": beside, "line": line}


def _http(home: Path, runs: int) -> dict[str, Any]:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "rawrag_tui.cli", "--home", str(home), "mcp", "--http",
                             "--port", str(port)], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise SystemExit("the HTTP server did not start") from None
                time.sleep(0.2)
        token = (home / "mcp-token").read_text().strip()

        async def run() -> dict[str, Any]:
            async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=300) as http, \
                    Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http)) as client:
                return await _measure(client, 1 << 20, runs)

        return asyncio.run(run())
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _stdio(home: Path, runs: int) -> dict[str, Any]:
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=sys.executable, cwd=str(REPO),
                                   args=["-m", "rawrag_tui.cli", "--home", str(home), "mcp"])

    async def run() -> dict[str, Any]:
        async with Client(params) as client:
            return await _measure(client, 10 << 20, runs)

    return asyncio.run(run())


def _line(name: str, out: dict[str, Any]) -> str:
    ref, refused = statistics.median(out["alone"]), statistics.median(out["refused"])
    return (f"{name}: refused in {min(out['refused']):.3f}-{max(out['refused']):.3f} s (median {refused:.3f} s, "
            f"x{refused / ref:.1f} a status alone at {ref:.3f} s); status sent with it {min(out['beside']):.3f}-"
            f"{max(out['beside']):.3f} s; the refusal: {out['line']}")


def measure(runs: int) -> dict[str, dict[str, Any]]:
    from rawrag_tui.demo import demo_path

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        subprocess.run([sys.executable, "-m", "rawrag_tui.cli", "--home", str(home), "import", str(demo_path()),
                        "--no-embed"], cwd=REPO, check=True, capture_output=True)
        return {"HTTP, 1 MiB query": _http(home, runs), "stdio, 10 MiB query": _stdio(home, runs)}


def run(quick: bool) -> list[dict]:
    """bench/run_all.py's rows: each refusal's median against a status call alone on the same server."""
    return [{"name": f"MCP refusal, {name}", "value": statistics.median(out["refused"]), "unit": "s",
             "reference_value": statistics.median(out["alone"])}
            for name, out in measure(2 if quick else 5).items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"machine: {platform.node()} {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; runs {args.runs}")
    for name, out in measure(args.runs).items():
        print(_line(name, out))


if __name__ == "__main__":
    main()
