"""rawrag index: window what needs it and embed what is pending (resumable)."""

from __future__ import annotations

import argparse

from .common import ProgressPrinter, add_common, open_memory, print_json


def register(sub) -> None:
    p = sub.add_parser("index", help="embed pending windows (after --no-embed, a settings or model change)")
    add_common(p)
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    progress = ProgressPrinter(enabled=not args.quiet)
    with open_memory(args) as mem:
        done = mem.index(progress)
    progress.finish()
    if args.json:
        print_json(done)
    else:
        print(f"{done['windows_written']} windows written, {done['embedded']} embedded")
    return 0
