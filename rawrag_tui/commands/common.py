"""What every command shares: opening the facade, JSON output, progress lines."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, ClassVar

from ..memory import Memory
from ..progress import ProgressMeter, human_duration
from ..search.types import Filters


def add_common(parser: argparse.ArgumentParser, json_flag: bool = True) -> None:
    """--home/--json on a subcommand; SUPPRESS keeps a top-level value intact.

    The top-level parser (cli.py) defines both, so every parsed namespace
    carries ``args.home`` and ``args.json`` whether or not a subcommand adds them.
    """
    parser.add_argument("--home", default=argparse.SUPPRESS,
                        help="data directory (default: RAWRAG_HOME or the platform's)")
    if json_flag:
        parser.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output")
        add_json_layout(parser, argparse.SUPPRESS)


def add_json_layout(parser: argparse.ArgumentParser, default: Any = False) -> None:
    """--pretty and --jsonl (each implies --json); see :func:`set_json_style`."""
    parser.add_argument("--pretty", action="store_true", default=default,
                        help="JSON indented for reading (the default on a terminal)")
    parser.add_argument("--jsonl", action="store_true", default=default,
                        help="JSON lines: one object per line (a search's hits, a conversation's messages)")


def add_filters(parser: argparse.ArgumentParser) -> None:
    """The filters every searching command takes (docs/cli.md#filters)."""
    group = parser.add_argument_group("filters", "dates: 2016, 2016-03, 2016-03-14, or 30d / 6w / 6m / 2y ago; "
                                      "both bounds include the period they name")
    group.add_argument("--after", metavar="DATE", help="messages from the start of DATE on")
    group.add_argument("--before", metavar="DATE", help="messages up to the end of DATE")
    group.add_argument("--speaker", metavar="NAME", action="append", default=[],
                       help="windows where this person's message matched (repeatable; a first name is enough)")
    group.add_argument("--source", metavar="NAME|ID", help="one imported source: its id, format or file name")
    group.add_argument("--conversation", metavar="ID|TITLE", help="one conversation: its id or title")
    group.add_argument("--kind", choices=("chat", "channel", "group", "agent"), help="conversations of one kind")


def filters_from(args: argparse.Namespace) -> Filters:
    return Filters(after=args.after, before=args.before, speakers=tuple(args.speaker), source=args.source,
                   conversation=args.conversation, kind=args.kind)


def open_memory(args: argparse.Namespace, **overrides: Any) -> Memory:
    # A store upgrade that rebuilds an index reports on stderr (nothing is printed otherwise).
    printer = ProgressPrinter()
    memory = Memory.open(args.home, progress=printer, **overrides)
    printer.finish()
    return memory


#: How --json output is laid out: "auto" (indented on a terminal, one line in a pipe),
#: "pretty" (--pretty: always indented) or "lines" (--jsonl: one object per line).
JSON_STYLES = ("auto", "pretty", "lines")
_json_style = "auto"
#: The list a command's object is about, written one item per line with --jsonl.
LISTED = ("hits", "messages", "conversations", "sources", "results", "files")


def set_json_style(args: argparse.Namespace) -> None:
    """--pretty and --jsonl each imply --json; the last word on the layout is theirs."""
    global _json_style
    pretty, lines = getattr(args, "pretty", False), getattr(args, "jsonl", False)
    if pretty or lines:
        args.json = True
    _json_style = "lines" if lines else "pretty" if pretty else "auto"


def print_json(obj: Any, file: Any = None) -> None:
    """``obj`` as JSON a person can read on a terminal and a program can read in a pipe."""
    out = file or sys.stdout
    if _json_style == "lines":
        items = obj if isinstance(obj, list) else next(
            (obj[key] for key in LISTED if isinstance(obj, dict) and isinstance(obj.get(key), list)), [obj])
        text = "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)
    elif _json_style == "pretty" or (_json_style == "auto" and out.isatty()):
        text = json.dumps(obj, ensure_ascii=False, indent=2) + "\n"
    else:
        text = json.dumps(obj, ensure_ascii=False) + "\n"
    out.write(text)
    out.flush()


class ProgressPrinter:
    """Progress on stderr: count, rate and ETA; redrawn in place on a terminal.

    Off a terminal it prints at most one line every ``interval`` seconds, so
    logs stay readable. The figures come from the same meter the app uses.
    """

    UNITS: ClassVar[dict[str, str]] = {"import": "messages", "parse": "messages", "embed": "windows", "read": "tokens",
                                       "sync": "files",
                                       "rebuild full-text index": "windows", "rebuild vector index": "vectors",
                                       "encrypt": "pages", "decrypt": "pages", "rekey": "pages"}
    #: Stages with a sentence of their own (and a bar) instead of "stage: count".
    LABELS: ClassVar[dict[str, str]] = {"read": "reading {total:,} tokens of evidence"}
    BAR = 20

    def __init__(self, stream=None, interval: float = 2.0, enabled: bool = True):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.enabled = enabled
        self.open_line = False
        self.meter = ProgressMeter(self._report, interval=0.1 if self.tty else interval)

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        if self.enabled:
            if stage != self.meter.stage:
                self.finish()
            self.meter(stage, done, total)

    def _report(self, stage: str, done: int, total: int | None, rate: float, eta: float | None) -> None:
        unit = self.UNITS.get(stage, "items")
        if stage == "wait":
            text = "waiting: another rawrag is embedding this home; this one goes on when it finishes"
        elif stage in self.LABELS and total:
            filled = round(self.BAR * min(done, total) / total)
            text = (self.LABELS[stage].format(total=total) + f" [{'#' * filled}{'.' * (self.BAR - filled)}] "
                    f"{done:,}/{total:,}" + (f", {rate:,.0f} {unit}/s" if rate > 0 else ""))
        else:
            text = (f"{stage}: {done:,}" + (f"/{total:,}" if total is not None else "") + f" {unit}"
                    + (f", {rate:,.1f}/s" if rate > 0 else ""))
            if stage == "embed" and total:  # the long one: a bar too
                filled = round(self.BAR * min(done, total) / total)
                text += f" [{'#' * filled}{'.' * (self.BAR - filled)}]"
        if eta is not None and total is not None and done < total:
            text += f", ETA {human_duration(eta)}"
        if self.tty:
            self.stream.write("\r\x1b[2K" + text)
            self.open_line = True
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self) -> None:
        if self.open_line:
            self.stream.write("\n")
            self.stream.flush()
            self.open_line = False
