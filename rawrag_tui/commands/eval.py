"""rawrag eval: LoCoMo and LongMemEval through the real search path.

Reports, per category and overall, evidence coverage of the top-K windows,
evidence size in tokens, timings, and with --reader the answer F1 (on the
answer's plain text), seconds per question, read and first-token seconds and
reader crashes; with --compare, several retrieval settings side by side with
paired bootstrap intervals for each difference against the first.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import toolkit
from ..errors import UserError
from ..eval import locomo, longmemeval, runner
from ..eval.compare import Setting, parse_settings
from ..eval.runner import EvalResult
from .common import ProgressPrinter, print_json

BENCHMARKS = {
    "locomo": "LoCoMo (a list of samples with conversation and qa)",
    "longmemeval": "LongMemEval (a list of questions, each with its haystack_sessions)",
}


def register(sub) -> None:
    p = sub.add_parser("eval", help="measure retrieval (and answers) on LoCoMo or LongMemEval")
    inner = p.add_subparsers(dest="benchmark", metavar="BENCHMARK", required=True)
    defaults = toolkit.RETRIEVAL_DEFAULTS
    for name, what in BENCHMARKS.items():
        q = inner.add_parser(name, help=f"evaluate on {what}",
                             description=f"Evaluate on {what}. Each history gets its own store: in a temporary "
                                         "folder, or under --home DIR (reused by later runs).")
        # Not add_common's --home: here it is where the evaluation stores go, never the user's history.
        q.add_argument("--home", default=argparse.SUPPRESS, metavar="DIR",
                       help="keep the evaluation stores under DIR (one folder per history) and reuse them "
                            "on later runs; default: a temporary folder, removed afterwards")
        q.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="machine-readable output")
        q.add_argument("file", help="the benchmark's JSON file")
        q.add_argument("--k", type=int, default=defaults.top_k, help=f"windows kept (default {defaults.top_k})")
        q.add_argument("--candidates", type=int, default=defaults.candidates,
                       help=f"recall depth per channel (default {defaults.candidates})")
        q.add_argument("--mode", choices=toolkit.SEARCH_MODES, default=defaults.mode, help=f"default {defaults.mode}")
        q.add_argument("--compare", metavar="SETTINGS",
                       help="comma-separated settings to compare, e.g. mode=dense,mode=hybrid,mode=lexical "
                            "or k=5,k=15,k=30; join knobs with + (mode=hybrid+k=30). The first is the reference.")
        q.add_argument("--reader", action="store_true", help="also answer each question and score the answers")
        q.add_argument("--limit-questions", type=int, metavar="N", help="only the first N scored questions")
        q.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default 1000)")
        q.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
        q.add_argument("--details", action="store_true", help="with --json: every question's outcome too")
        q.add_argument("--quiet", action="store_true", help="no progress on stderr")
        q.set_defaults(func=run)


def _check_args(args: argparse.Namespace) -> None:
    for name, value in (("k", args.k), ("candidates", args.candidates), ("resamples", args.resamples)):
        if value < 1:
            raise UserError(f"--{name} must be at least 1")
    if args.limit_questions is not None and args.limit_questions < 1:
        raise UserError("--limit-questions must be at least 1")


def run(args: argparse.Namespace) -> int:
    _check_args(args)
    base = Setting(mode=args.mode, k=args.k, candidates=args.candidates)
    settings = parse_settings(args.compare, base)
    module = locomo if args.benchmark == "locomo" else longmemeval
    haystacks = runner.limit_questions(module.load(args.file), args.limit_questions)
    progress = ProgressPrinter(enabled=not args.quiet)

    def log(line: str) -> None:
        if not args.quiet:
            progress.finish()
            print(line, file=sys.stderr, flush=True)

    result = runner.run(
        args.benchmark, str(Path(args.file)), haystacks, settings,
        primary=locomo.LEVEL if module is locomo else longmemeval.PRIMARY,
        group_order=tuple(locomo.CATEGORIES.values()) if module is locomo else longmemeval.TYPES,
        root=Path(args.home) if args.home else None, reader=args.reader, log=log, progress=progress,
        resamples=args.resamples, seed=args.seed,
    )
    progress.finish()
    if module is locomo:
        result.notes.extend(locomo.notes(haystacks))
    if args.json:
        print_json(result.to_json(details=args.details))
    else:
        print_report(result)
    return 0


# -- the text report -----------------------------------------------------------


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:5.1f}%"


def _num(value: float | None, fmt: str = "{:.0f}") -> str:
    return "-" if value is None else fmt.format(value)


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    line = lambda cells: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))  # noqa: E731
    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _delta(diff) -> str:
    if diff is None:
        return "-"
    mark = "*" if diff.significant else " "
    return f"{100 * diff.delta:+.1f} [{100 * diff.low:+.1f}, {100 * diff.high:+.1f}]{mark}"


def _read_by() -> str:
    """Where the evaluation's answers were read: the reader the user chose."""
    from .. import toolkit

    r = toolkit.reader_configured()
    return f"{r['model']} at {'this machine (bundled llama.cpp)' if r['endpoint'] == 'local' else r['endpoint']}"


def _reader_line(s) -> str:
    """Where a question's seconds go, over every question read (crashes left out of the means)."""
    return (f"reader: {_num(s.question_s_mean, '{:.2f}')}s per question (search + read), "
            f"read {_num(s.read_s_mean, '{:.2f}')}s, first token {_num(s.first_token_s_mean, '{:.2f}')}s; "
            f"{s.reader_crashes} reader crash(es), scored 0; answers scored on their text without [n] markers")


def print_report(result: EvalResult) -> None:
    data = result.to_json()
    primary = result.primary
    print(f"{result.benchmark}: {data['questions']} questions over {result.haystacks} histories "
          f"({result.messages} messages, {result.windows} windows) from {result.source}")
    print(f"import {result.import_s:.1f}s, embedder load {result.model_load_s:.1f}s, embed {result.embed_s:.1f}s "
          f"({_num(data['timings']['embed_s_per_question'], '{:.2f}')}s per question; "
          f"{result.windows_embedded} windows embedded, {result.windows_reused} reused across stores)")
    summaries = result.summaries()
    for setting, summary in zip(result.settings, summaries):
        print(f"\n== {setting.label()}")
        levels = list(summary["all"].coverage)
        header = ["group", "n", "scored"]
        for level in levels:
            header += [f"{level} all", f"{level} any"]
        header += ["ev tokens", "search ms"]
        if result.reader:
            header += ["answer F1", "utilisation", "abstain ok", "s/question", "first token s", "crashes"]
        rows = []
        for group, s in summary.items():
            row = [group, str(s.questions), str(s.coverage.get(primary, {}).get("scored", 0))]
            for level in levels:
                c = s.coverage.get(level, {})
                row += [_pct(c.get("all")), _pct(c.get("any"))]
            row += [_num(s.evidence_tokens_mean), _num(s.search_ms_mean, "{:.1f}")]
            if result.reader:
                row += [_pct(s.answer_score), _pct(s.utilisation), _pct(s.abstention_accuracy),
                        _num(s.question_s_mean, "{:.2f}"), _num(s.first_token_s_mean, "{:.2f}"),
                        str(s.reader_crashes)]
            rows.append(row)
        print(_table(header, rows))
        if result.reader:
            print(_reader_line(summary["all"]))
            print(f"answers read by {_read_by()}")
    if len(result.settings) > 1:
        print(f"\n== comparison ({primary} coverage; delta vs {result.settings[0].label()} in points, "
              f"95% paired bootstrap CI, {result.resamples} resamples, seed {result.seed}; * = excludes 0)")
        header = ["setting", "all", "delta all", "any", "delta any", "ev tokens", "search ms"]
        if result.reader:
            header += ["answer F1", "delta F1"]
        rows = []
        comparisons = result.comparisons()
        for i, (setting, summary) in enumerate(zip(result.settings, summaries)):
            s = summary["all"]
            c = s.coverage.get(primary, {})
            diffs = comparisons[i - 1] if i else {}
            row = [setting.label(), _pct(c.get("all")), _delta(diffs.get("coverage_all")) if i else "ref",
                   _pct(c.get("any")), _delta(diffs.get("coverage_any")) if i else "ref",
                   _num(s.evidence_tokens_mean), _num(s.search_ms_mean, "{:.1f}")]
            if result.reader:
                row += [_pct(s.answer_score), _delta(diffs.get("answer_score")) if i else "ref"]
            rows.append(row)
        print(_table(header, rows))
    for note in result.notes:
        print(f"note: {note}")
