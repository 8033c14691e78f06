"""The reader's own process: llama.cpp runs here and nowhere else.

Started by :class:`~rawrag_tui.models.reader_process.ReaderProcess` as
``python -m rawrag_tui.models.reader_worker``. It speaks JSON lines: requests
on stdin, replies on a private copy of stdout (fd 1 itself is pointed at
stderr, so anything native code prints cannot corrupt the protocol).

Requests and replies:

- ``{"op": "load", ...launch}`` -> ``{"ready": {...describe()}}``
- ``{"op": "count", "texts": [...]}`` -> ``{"counts": [...]}``
- ``{"op": "answer", "prompt": ..., "max_tokens": N}`` ->
  ``{"progress": [done, total]}``* ``{"piece": "..."}``* ``{"done": {...}}``
- ``{"op": "warm", "prefix": ..., "room": N}`` -> ``{"warmed": {"rate", "cached", "seconds"}}``
- ``{"op": "info"}`` -> ``{"info": {...}}``
- any failure rawrag understands -> ``{"error": "...", "kind": "model"|"user"}``

It ignores Ctrl-C (the face decides what an interrupt means) and exits when
its stdin closes, so it never outlives the process that started it.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any, TextIO


def _reply(out: TextIO, message: dict[str, Any]) -> None:
    out.write(json.dumps(message, ensure_ascii=False) + "\n")
    out.flush()


def _load(request: dict[str, Any]):
    from .llama_reader import LlamaReader

    return LlamaReader(
        request["path"],
        context_cap=int(request["context_cap"]),
        gpu_layers=request["gpu_layers"],
        threads=int(request["threads"]),
        batch=int(request["batch"]),
        prompt_cache=Path(request["prompt_cache"]) if request.get("prompt_cache") else None,
    )


def serve(requests: TextIO, out: TextIO) -> int:
    from ..errors import ModelError, UserError

    reader = None
    for line in requests:
        if not line.strip():
            continue
        request = json.loads(line)
        op = request.get("op")
        try:
            if op == "quit":
                break
            if op == "load":
                reader = _load(request)
                _reply(out, {"ready": reader.describe()})
            elif reader is None:
                _reply(out, {"error": "the reader is not loaded", "kind": "model"})
            elif op == "count":
                _reply(out, {"counts": [reader.count_tokens(t) for t in request["texts"]]})
            elif op == "warm":
                _reply(out, {"warmed": asdict(reader.warm(request["prefix"], int(request["room"])))})
            elif op == "info":
                _reply(out, {"info": reader.describe()})
            elif op == "answer":
                def progress(done: int, total: int) -> None:
                    _reply(out, {"progress": [done, total]})

                avoid = [str(w) for w in request.get("avoid") or ()]
                pieces = (reader.answer_avoiding(request["prompt"], avoid, int(request["max_tokens"])) if avoid
                          else reader.answer(request["prompt"], int(request["max_tokens"]), on_progress=progress))
                for piece in pieces:
                    _reply(out, {"piece": piece})
                _reply(out, {"done": reader.last_prefill})
            else:
                _reply(out, {"error": f"unknown request {op!r}", "kind": "model"})
        except ModelError as exc:
            _reply(out, {"error": str(exc), "kind": "model"})
        except UserError as exc:
            _reply(out, {"error": str(exc), "kind": "user"})
    if reader is not None:
        reader.close()
    return 0


def main() -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)  # native prints land on stderr, never in the protocol
    sys.stdout = sys.stderr
    return serve(sys.stdin, protocol)


if __name__ == "__main__":
    sys.exit(main())
