"""LoCoMo retrieval: coverage and search latency per mode, lexical as the reference.

Runs ``rawrag eval``'s own loop (rawrag_tui.eval) on the bundled LoCoMo
sample: evidence coverage of the top-15 windows for dense, lexical and
hybrid search, and milliseconds per search. Latency is reported against
lexical search in the same process, so the ratio (what the embedder costs
per question) carries over between machines; coverage is a property of the
data and the method, not the machine.

    python bench/eval_locomo.py [--quick]
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CANDIDATES = [ROOT / "shared/data/locomo-conv-26.json", ROOT.parent / "shared/data/locomo-conv-26.json"]
QUICK_SESSIONS = 3  # about a fifth of the windows: embeds in seconds


def data_file() -> Path:
    for path in CANDIDATES:
        if path.exists():
            return path
    raise FileNotFoundError("no LoCoMo sample found (looked for shared/data/locomo-conv-26.json)")


def first_sessions(path: Path, out: Path, sessions: int) -> Path:
    """The sample cut to its first ``sessions`` sessions and the questions they answer (for --quick)."""
    from rawrag_tui.eval.coverage import parse_locomo_evidence

    sample = json.loads(path.read_text(encoding="utf-8"))[0]
    conv = {k: v for k, v in sample["conversation"].items()
            if not k.startswith("session_") or int(k.split("_")[1]) <= sessions}
    kept = {f"D{s}:" for s in range(1, sessions + 1)}
    qa = [q for q in sample["qa"] if (ids := parse_locomo_evidence(q.get("evidence")))
          and all(i[: i.index(":") + 1] in kept for i in ids)]
    out.write_text(json.dumps([{**sample, "conversation": conv, "qa": qa}]), encoding="utf-8")
    return out


def run(quick: bool = False) -> list[dict]:
    sys.path.insert(0, str(ROOT))
    from rawrag_tui.eval import locomo, runner
    from rawrag_tui.eval.compare import Setting

    path = data_file()
    modes = ["lexical", "dense", "hybrid"]
    with tempfile.TemporaryDirectory(prefix="rawrag-bench-") as tmp:
        if quick:
            path = first_sessions(path, Path(tmp) / "locomo-quick.json", QUICK_SESSIONS)
        haystacks = locomo.load(path)
        result = runner.run("locomo", str(path), haystacks, [Setting(m, 15, 128) for m in modes],
                            primary=locomo.LEVEL, root=Path(tmp) / "stores")
    summaries = [s["all"] for s in result.summaries()]
    rows = [{"name": f"embed {result.windows} windows",
             "value": result.windows / result.embed_s if result.embed_s else 0.0, "unit": "windows/s"}]
    lexical_ms = summaries[0].search_ms_mean
    for mode, s in zip(modes, summaries):
        rows.append({"name": f"search {mode} k=15", "value": s.search_ms_mean, "unit": "ms/question",
                     "reference_value": lexical_ms})
        rows.append({"name": f"coverage {mode} k=15 (all evidence)", "value": 100 * s.coverage[locomo.LEVEL]["all"],
                     "unit": "%"})
    return rows


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        print(row)
