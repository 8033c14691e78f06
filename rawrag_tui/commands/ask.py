"""``rawrag ask QUESTION``: an answer from your own history, with citations.

The first answer printed is the final one. With the answer checks on
(``[answer] checks``, the default) a check may still replace the reader's
words once it has finished, so they are not streamed to stdout: on a
terminal they show on stderr, dimmed, as the reader writes them, and are
wiped when the final answer is printed; stdout holds only the final answer,
then the note saying what the reader said instead (when a check replaced
it), then the cited messages, each with the id it has in the original
export. With ``--no-checks`` the reader's words are the answer and stream
to stdout. ``--json`` prints one object instead (no streaming). A question
that finds no evidence is answered without loading the reader.
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import textwrap
from typing import TextIO

from ..errors import UserError


def _iso_date(value: str) -> str:
    try:
        return dt.date.fromisoformat(value).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date like 2023-05-08") from None


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "ask",
        help="answer a question from your history, citing the messages",
        description="Answer a question from your imported history with the local reader, citing messages as [n].",
    )
    p.add_argument("question", help="the question, in your own words")
    p.add_argument("--date", type=_iso_date, help="the day the question is asked (YYYY-MM-DD; default today)")
    p.add_argument("--show-evidence", action="store_true", help="print the numbered messages the reader sees")
    p.add_argument("--gpu-layers", metavar="auto|N", help="layers on the GPU (default: reader.gpu_layers, auto)")
    p.add_argument("--no-checks", action="store_true",
                   help="keep the reader's words as they are (no answer check replaces them; [answer] checks)")
    from .common import add_filters

    add_filters(p)
    # Also accepted after the subcommand; SUPPRESS keeps the top-level value otherwise.
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print one JSON object")
    p.set_defaults(func=run)


def _short(text: str, width: int = 100) -> str:
    return textwrap.shorten(" ".join(text.split()), width=width, placeholder=" ...")


def print_citations(answer, out: TextIO) -> None:
    from ..display import format_timestamp

    for c in answer.citations:
        print(f"  [{c.n}] {c.external_id} · {format_timestamp(c.timestamp)} · {c.speaker}: {_short(c.text)}", file=out)
    notes = []
    if answer.unsupported:
        notes.append("no message in the evidence says this: it may be the reader's guess (--show-evidence)")
    if answer.dropped_citations:
        notes.append(f"{answer.dropped_citations} citation(s) to messages not in the evidence removed")
    if answer.superseded:
        notes.append(f"{answer.superseded} earlier message(s) left out: a later message changed what they said")
    if answer.budget_note():
        notes.append(answer.budget_note())
    for note in notes:
        print(f"  ({note})", file=sys.stderr)


class Draft:
    """The reader's words as it writes them, shown dimmed on a terminal's stderr
    and wiped before the final answer is printed (off a terminal: not shown)."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.tty = stream.isatty()
        self.text = ""

    def write(self, piece: str) -> None:
        if not self.tty:
            return
        if not self.text:
            self.stream.write("\x1b[2mreader: ")
        self.text += piece
        self.stream.write(piece)
        self.stream.flush()

    def wipe(self) -> None:
        if not self.text:
            return
        import shutil

        lines = 1 + (len("reader: ") + len(self.text)) // max(shutil.get_terminal_size().columns, 1) \
            + self.text.count("\n")
        self.stream.write("\x1b[0m\r\x1b[K" + "\x1b[1A\x1b[K" * (lines - 1))
        self.stream.flush()
        self.text = ""


def run(args) -> int:
    from .common import ProgressPrinter, filters_from, open_memory, print_json

    question = args.question.strip()
    if not question:
        raise UserError("ask: the question is empty")
    as_json = args.json
    mem = open_memory(args, answer={"checks": ()}) if getattr(args, "no_checks", False) else open_memory(args)
    out = sys.stdout
    # With checks on, the reader's words are a draft until they have run.
    draft = Draft(sys.stderr) if mem.settings.answer.checks else None

    def show_evidence(packed) -> None:
        if args.show_evidence and not as_json:
            print(packed.text, file=out)
            print(file=out)

    progress = ProgressPrinter(enabled=not as_json)

    def stream(piece: str) -> None:
        progress.finish()
        if draft is not None:
            draft.write(piece)
            return
        out.write(piece)
        out.flush()

    try:
        answer = mem.ask(
            question,
            date=args.date,
            on_token=None if as_json else stream,
            on_evidence=show_evidence,
            on_progress=progress,
            gpu_layers=args.gpu_layers,
            filters=filters_from(args),
        )
    finally:
        progress.finish()
        if draft is not None:
            draft.wipe()
        mem.close()
    if as_json:
        data = answer.to_json()
        if args.show_evidence:
            data["evidence"] = [m.to_json() for m in answer.evidence]
        print_json(data, file=out)
    else:
        print(answer.answer if draft is not None else "", file=out)
        if answer.reader_said:
            print(f"  ({answer.correction})", file=out)
        if (answer.citations or answer.dropped_citations or answer.dropped_windows or answer.cut_messages
                or answer.unsupported):
            print_citations(answer, out)
        if answer.reader:
            print(f"  ({answer.read_by()})", file=sys.stderr)
    return 0
