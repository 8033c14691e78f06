"""rawrag demo: the whole path offline on a shipped sample history.

Uses its own data directory (``<data dir>/demo`` unless --home is given), so
the demo never mixes with the user's own history.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from .. import toolkit
from ..demo import QUESTIONS, demo_path
from ..display import best_messages, format_timestamp, message_line
from ..memory import Memory
from .common import ProgressPrinter, add_common, print_json

EVIDENCE_SHOWN = 3


def register(sub) -> None:
    p = sub.add_parser("demo", help="import a sample history, index it, and search it (offline)")
    add_common(p)
    p.add_argument("--no-ask", action="store_true", help="search only; do not run the local reader")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    home = args.home or toolkit.default_home() / "demo"
    as_json = args.json
    progress = ProgressPrinter(enabled=not as_json)
    out: dict = {"home": str(home), "questions": []}
    with Memory.open(home) as mem:
        report = mem.import_path(demo_path(), "jsonl", progress=progress)
        progress.finish()
        out["import"] = report.to_json()
        if not as_json:
            print(f"demo data in {home}")
            print(f"imported {report.conversations} conversations, {report.messages_added} new of "
                  f"{report.messages_seen} messages; {report.embedded} windows embedded ({report.seconds:.1f}s)\n")
        ask = None if args.no_ask else mem.ask
        for question in QUESTIONS:
            t = time.perf_counter()
            result = mem.search(question)
            entry: dict[str, Any] = {"question": question, "search_seconds": time.perf_counter() - t,
                     "top_evidence": [], "answer": None}
            entry["top_evidence"] = [m.to_json() for m in best_messages(result, EVIDENCE_SHOWN)]
            if not as_json:
                print(f"Q: {question}   ({entry['search_seconds'] * 1000:.0f} ms)")
                for m in entry["top_evidence"]:
                    print("   " + message_line(m["timestamp"], m["speaker"], m["text"], m["captions"])
                          + f"   <{m['conversation']}>")
            if ask is not None:
                entry["answer"] = _answer(ask, question, as_json)
            out["questions"].append(entry)
            if not as_json:
                print()
    if as_json:
        print_json(out)
    return 0


def _answer(ask, question: str, quiet: bool) -> dict | None:
    """The reader's answer, or None (with a note) when no reader is installed."""
    from ..errors import UserError

    if not quiet:
        print("A: ", end="", flush=True)
    try:
        # Not streamed: an answer check may still replace the reader's words, and the
        # A: line holds the final answer (the reader's own words follow as a note).
        answer = ask(question)
    except UserError as exc:
        if not quiet:
            print(f"(no answer: {exc})")
        return None
    if not quiet:
        cited = ", ".join(f"[{c.n}] {c.speaker} {format_timestamp(c.timestamp)}".strip() for c in answer.citations)
        if answer.unsupported:
            cited = "no message in the evidence says this: it may be the reader's guess"
        print(answer.answer, end="")
        if answer.reader_said:
            print(f"\n   note: {answer.correction}", end="")
        print(f"\n   sources: {cited or 'none cited'}   ({answer.timings.get('read', 0):.1f} s)")
    return answer.to_json()
