"""rawrag import PATH: detect, parse, store, window and embed, all or nothing."""

from __future__ import annotations

import argparse
import sys

from .. import toolkit
from .common import ProgressPrinter, add_common, open_memory, print_json


def register(sub) -> None:
    p = sub.add_parser("import", help="import a chat export (file, folder or zip)")
    add_common(p)
    p.add_argument("path")
    p.add_argument("--format", default="auto", help=f"auto (default) or one of: {', '.join(toolkit.FORMATS)}")
    p.add_argument("--no-embed", action="store_true", help="store and window only; embed later with `rawrag index`")
    p.add_argument("--dry-run", action="store_true", help="report what would be imported; write nothing")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    progress = ProgressPrinter(enabled=not args.quiet)
    with open_memory(args) as mem:
        report = mem.import_path(args.path, args.format, embed=not args.no_embed, dry_run=args.dry_run,
                                 progress=progress)
        hint = None if report.dry_run or not report.messages_added else mem.language_hint(report.source_id)
    progress.finish()
    if args.json:
        print_json(report.to_json())
        return 0
    verb = "would add" if report.dry_run else "added"
    line = (f"{report.path} ({report.format}): {report.conversations} conversations, "
            f"{verb} {report.messages_added} of {report.messages_seen} messages")
    if report.skipped:
        line += "; skipped " + ", ".join(f"{n} {kind}" for kind, n in sorted(report.skipped.items()))
    print(line)
    if report.already_imported and not report.dry_run:
        print(f"this export was imported before (source {report.source_id}); nothing new in it"
              if report.messages_added == 0 else f"merged into source {report.source_id}")
    placed = set()
    for item in report.unreadable:  # skipped records, each with its place (line or JSON path)
        placed.add(f"{item['file']} ({item['where']}): skipped: {item['problem']}")
        print(f"  unreadable, skipped: {item['file']} ({item['where']}): {item['problem']}")
    unlisted = report.skipped.get("unreadable", 0) - len(report.unreadable)
    if unlisted > 0:
        print(f"  ... and {unlisted} more unreadable records")
    for error in report.errors:
        if error not in placed:
            print(f"warning: {error}", file=sys.stderr)
    if not report.dry_run:
        print(f"{report.windows_written} windows written, {report.embedded} embedded, in {report.seconds:.1f}s")
    if hint:
        print(hint)
    return 0
