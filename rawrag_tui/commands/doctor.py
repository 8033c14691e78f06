"""``rawrag doctor``: check every part by running it once; exit 1 naming the fix."""

from __future__ import annotations

import argparse

from .. import toolkit
from .common import add_common, print_json


def register(sub) -> None:
    p = sub.add_parser(
        "doctor",
        help="check the CPU, the reader build, ONNX Runtime, each model and the data directory",
        description="Run every part once (the reader on a 512+ token prompt, in its own process) and "
                    "say what is wrong and how to fix it. Exit 1 when something is.",
    )
    add_common(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    report = toolkit.doctor(args.home)
    if args.json:
        print_json(report.to_json())
    else:
        for check in report.checks:
            print(f"{'ok  ' if check.ok else 'FAIL'} {check.name:<16} {check.summary}")
            if check.fix:
                print(f"     {'':<16} fix: {check.fix}")
        print("all checks passed" if report.ok else "some checks failed: see the fix lines above")
    return 0 if report.ok else 1
