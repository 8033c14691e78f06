"""rawrag sync: import what is new from Claude Code, Codex and added folders; list, add, remove; watch; install."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .common import ProgressPrinter, add_common, open_memory, print_json


def register(sub) -> None:
    p = sub.add_parser(
        "sync", help="import what is new from live sources (Claude Code, Codex, added folders)",
        description="Read what is new in every live source: Claude Code's and Codex's session logs (found on "
                    "their own) and the folders added with `rawrag sync add`. A second sync with nothing new "
                    "adds nothing; a file deleted at its source keeps its messages. Exit 1 when a source "
                    "cannot be read, one line for each.")
    add_common(p)
    p.add_argument("--watch", action="store_true", help="keep running: sync again whenever a source changes")
    p.add_argument("--install", action="store_true",
                   help="run `rawrag sync` every --every minutes (systemd user timer, or launchd on macOS)")
    p.add_argument("--every", type=int, default=15, metavar="N", help="minutes between scheduled syncs (15)")
    p.add_argument("--uninstall", action="store_true", help="remove the schedule --install made")
    p.add_argument("--no-embed", action="store_true", help="store and window only; embed later with `rawrag index`")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run, sync_action=None)
    actions = p.add_subparsers(dest="sync_action", metavar="ACTION")
    add = actions.add_parser("add", help="follow a folder (e.g. ~/Downloads for new export zips)")
    add_common(add)
    add.add_argument("path")
    add.add_argument("--pattern", metavar="GLOB", help="which files in it (default *.zip; ** for subfolders)")
    listing = actions.add_parser("list", help="the live sources sync reads")
    add_common(listing)
    remove = actions.add_parser("remove", help="stop following a source (its messages stay)")
    add_common(remove)
    remove.add_argument("path")


def run(args: argparse.Namespace) -> int:
    action = args.sync_action
    with open_memory(args) as mem:
        syncing = mem.syncing()
        if action == "list":
            return _list(args, syncing.sources(), syncing.last())
        if action == "add":
            row = syncing.add(args.path, args.pattern)
            return _said(args, row, f"following {row['path']} ({row['pattern']})")
        if action == "remove":
            row = syncing.remove(args.path)
            return _said(args, row, f"no longer following {row['path']} ({row['removed']}); its messages stay")
        if args.install and args.uninstall:
            from ..errors import UserError

            raise UserError("--install and --uninstall: give one")
        if args.install:
            done = syncing.install(args.every)
            enabled = "enabled" if done["enabled"] else f"written, not enabled: {done['note']}"
            return _said(args, done, f"rawrag sync every {done['every']} minutes ({done['kind']}, {enabled}): "
                                     + ", ".join(done["files"]))
        if args.uninstall:
            done = syncing.uninstall()
            return _said(args, done, ("removed " + ", ".join(done["removed"])) if done["removed"]
                         else f"no {done['kind']} schedule was installed")
        code = _sync_once(args, syncing)
        if not args.watch:
            return code
        if not args.json:
            print("watching: " + ", ".join(str(f) for f in syncing.folders()) + " (Ctrl-C stops)", file=sys.stderr)

        def again(_changed: set[str]) -> None:
            _sync_once(args, syncing)

        syncing.watch(again)
        return 0


def _sync_once(args: argparse.Namespace, syncing: Any) -> int:
    progress = ProgressPrinter(enabled=not args.quiet and not args.json)
    report = syncing.run(embed=not args.no_embed, progress=progress)
    progress.finish()
    if args.json:
        print_json(report.to_json())
    else:
        line = (f"synced {len(report.sources)} sources: {report.files_seen:,} files, {report.files_read:,} read, "
                f"{report.added:,} messages added")
        if report.embedded:
            line += f", {report.embedded:,} windows embedded"
        if report.skipped:
            line += "; skipped " + ", ".join(f"{n:,} {kind}" for kind, n in sorted(report.skipped.items()))
        print(line + f" in {report.seconds:.2f}s")
        for item in report.unreadable[:20]:
            print(f"  unreadable, skipped: {item['file']} ({item['where']}): {item['problem']}")
        if report.unreadable_count > 20:
            print(f"  ... and {report.unreadable_count - 20} more unreadable records")
        for line in report.ignored:
            print(f"  ignored: {line}")
        for line in report.failed:
            print(f"rawrag: sync failed: {line}", file=sys.stderr)
    return 1 if report.failed else 0


def _said(args: argparse.Namespace, payload: dict, text: str) -> int:
    if args.json:
        print_json(payload)
    else:
        print(text)
    return 0


def _list(args: argparse.Namespace, sources: list[dict], last: dict | None) -> int:
    if args.json:
        print_json({"sources": sources, "last_sync": last})
        return 0
    if not sources:
        print("no live sources: no Claude Code or Codex folder found; add one with `rawrag sync add PATH`")
    for s in sources:
        where = "" if s["exists"] else "  (missing)"
        print(f"{s['origin']:<6} {s['kind']:<12} {s['path']}  [{s['pattern']}]  "
              f"files read: {s['files_read']:,}, messages: {s['messages_added']:,}{where}")
    if last:
        print(f"last sync {last['at']}: {last['added']:,} added, {last['failed_count']} failed")
    return 0
