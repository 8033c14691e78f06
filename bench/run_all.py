"""Run every benchmark under bench/ and print one table, with the machine it ran on.

A benchmark is any ``bench/*.py`` (not this file, not ``_*.py``) that defines
``run(quick: bool) -> list[dict]``. Each row is

    {"name": str, "value": float, "unit": str,
     "reference_value": float (optional), "ratio": float (optional)}

``reference_value`` is the same quantity measured for a reference in the same
process (e.g. the previous approach, or plain numpy doing the same work), so
``ratio = value / reference_value`` carries over between machines while the
absolute value does not. When a row has a reference but no ratio, the ratio
is computed here. See bench/README.md.

    python bench/run_all.py            # full runs
    python bench/run_all.py --quick    # small inputs, for a smoke check
    python bench/run_all.py --only core_bench --json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import platform
import sys
import time
import traceback
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SKIP = {"run_all"}


def machine() -> dict:
    """Where the figures come from: they mean little without it."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {"platform": platform.platform(), "cpu": cpu, "cores": os.cpu_count(), "usable_cores": usable,
            "python": platform.python_version()}


def discover(folder: Path = HERE, only: list[str] | None = None) -> list[Path]:
    paths = sorted(p for p in folder.glob("*.py") if p.stem not in SKIP and not p.stem.startswith("_"))
    if only:
        wanted = {name.removesuffix(".py") for name in only}
        unknown = wanted - {p.stem for p in paths}
        if unknown:
            raise SystemExit(f"run_all: no benchmark named {', '.join(sorted(unknown))} in {folder}")
        paths = [p for p in paths if p.stem in wanted]
    return paths


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_row(row: object, bench: str) -> dict:
    if not isinstance(row, dict):
        raise ValueError(f"{bench}: a row must be a dict, got {type(row).__name__}")
    missing = [k for k in ("name", "value", "unit") if k not in row]
    if missing:
        raise ValueError(f"{bench}: row {row!r} lacks {', '.join(missing)}")
    out = {"bench": bench, "name": str(row["name"]), "value": float(row["value"]), "unit": str(row["unit"])}
    ref = row.get("reference_value")
    out["reference_value"] = None if ref is None else float(ref)
    ratio = row.get("ratio")
    if ratio is None and out["reference_value"]:
        ratio = out["value"] / out["reference_value"]
    out["ratio"] = None if ratio is None else float(ratio)
    return out


def run_all(paths: list[Path], quick: bool, log=None) -> tuple[list[dict], list[dict]]:
    """(rows, failures): a benchmark that fails is reported, the others still run."""
    rows: list[dict] = []
    failures: list[dict] = []
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    for path in paths:
        started = time.perf_counter()
        try:
            module = load(path)
            run = getattr(module, "run", None)
            if not callable(run):
                if log:
                    log(f"# {path.stem}: no run(quick) function, skipped")
                continue
            if log:
                log(f"# {path.stem} ...")
            produced = run(quick=quick)
            rows.extend(check_row(r, path.stem) for r in produced)
        except Exception as exc:  # noqa: BLE001 - one broken benchmark must not hide the others
            failures.append({"bench": path.stem, "error": f"{type(exc).__name__}: {exc}",
                             "traceback": traceback.format_exc()})
            if log:
                log(f"# {path.stem} FAILED: {type(exc).__name__}: {exc}")
            continue
        if log:
            log(f"# {path.stem} done in {time.perf_counter() - started:.1f}s")
    return rows, failures


def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    if value == 0 or not math.isfinite(value):
        return str(value)
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def table(rows: list[dict], info: dict) -> str:
    header = ["bench", "measure", "value", "unit", "reference", "ratio"]
    body = [[r["bench"], r["name"], _fmt(r["value"]), r["unit"], _fmt(r["reference_value"]),
             "-" if r["ratio"] is None else f"{r['ratio']:.2f}x"] for r in rows]
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    fmt = lambda cells: "  ".join(c.ljust(w) if i in (0, 1, 3) else c.rjust(w)  # noqa: E731
                                  for i, (c, w) in enumerate(zip(cells, widths)))
    lines = [f"machine: {info['cpu']}, {info['cores']} cores ({info['usable_cores']} usable), "
             f"{info['platform']}, Python {info['python']}", fmt(header), fmt(["-" * w for w in widths])]
    lines += [fmt(line) for line in body]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small inputs: a smoke run, not figures to quote")
    ap.add_argument("--only", nargs="+", metavar="NAME", help="run only these benchmarks (file names)")
    ap.add_argument("--json", action="store_true", help="one JSON object: machine, rows, failures")
    ap.add_argument("--dir", type=Path, default=HERE, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    info = machine()
    log = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
    rows, failures = run_all(discover(args.dir, args.only), args.quick, log)
    if args.json:
        print(json.dumps({"machine": info, "quick": args.quick, "rows": rows,
                          "failures": [{k: f[k] for k in ("bench", "error")} for f in failures]}))
    else:
        print(table(rows, info))
        for f in failures:
            print(f"\nFAILED {f['bench']}: {f['error']}\n{f['traceback']}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
