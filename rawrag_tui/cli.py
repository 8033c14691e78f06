"""The `rawrag` command: argument parsing and error reporting, nothing more.

Every command is a thin shell over :mod:`rawrag_tui.memory`; this module
only turns user errors into one line and exit code 1 (usage errors are 2), and
an unexpected exception (a bug) into one line, exit code 3 and a log file.
Command modules are imported lazily so ``rawrag --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from . import __version__
from .commands import COMMANDS
from .commands.common import add_json_layout, set_json_style
from .errors import UserError

EXIT_OK, EXIT_USER, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rawrag",
        description="Your raw chat history, searchable and answerable offline. With no command: the app.",
    )
    parser.add_argument("--version", action="version", version=f"rawrag {__version__}")
    # Defined here, so every parsed namespace carries args.home and args.json; a
    # subcommand that accepts them too adds them with SUPPRESS (commands/common.py).
    parser.add_argument("--home", help="data directory (default: RAWRAG_HOME or the platform's user data dir)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    add_json_layout(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"rawrag_tui.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"rawrag_tui.commands.{name}":
                continue  # a command not in this build
            raise
        module.register(sub)
    return parser


def _run_app(args: argparse.Namespace) -> int:
    try:
        from .tui.app import run_app
    except ModuleNotFoundError:
        print("the terminal app is not in this build; try `rawrag --help`", file=sys.stderr)
        return EXIT_USER
    return run_app(args.home)


def main(argv: list[str] | None = None) -> int:
    os.umask(0o077)  # everything rawrag writes is private to the user
    parser = build_parser()
    args = parser.parse_args(argv)
    set_json_style(args)
    try:
        if args.command is None:
            return _run_app(args)
        return args.func(args)
    except UserError as exc:
        print(f"rawrag: error: {exc}", file=sys.stderr)
        return EXIT_USER
    except KeyboardInterrupt:
        print("rawrag: interrupted; an unfinished import was rolled back", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # noqa: BLE001  (a bug: one line and exit 3; the traceback goes to a log)
        return _internal_error(exc, args.home)


def _internal_error(exc: Exception, home: str | None) -> int:
    from pathlib import Path

    from .crash import one_line, record
    from .settings import default_home

    try:
        folder = Path(home).expanduser() if home else default_home()
    except Exception:  # noqa: BLE001  (no home to log into: the system's temporary folder will do)
        folder = None
    print(one_line(exc, record(exc, folder)), file=sys.stderr)
    return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
