"""How honestly the local reader says "not in your history": an answer it cannot give must not be a guess.

LoCoMo's category 5 questions are adversarial: each asks about something the
conversation never says (it swaps who did what). Categories 1-4 are answered
by the conversation. For each prompt style this asks N of each and counts:

- **abstained**: the reader said :data:`prompts.NOT_IN_HISTORY`;
- **flagged**: a plain answer no evidence message supports (``unsupported``,
  which the faces show as "it may be the reader's guess");
- the **false-abstention rate**: answerable questions abstained on;
- the **honest rate** on unanswerable ones: abstained or flagged.

    python bench/abstention.py --n 20                 # both styles
    python bench/abstention.py --n 10 --style cited

Wall-clock seconds move with the machine's load; the rates do not.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from reader_locomo import DEFAULT_DATA, last_session_date  # noqa: E402

from rawrag_tui.answer.prompts import PROMPT_VERSION, is_abstention  # noqa: E402
from rawrag_tui.memory import Memory  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path)
    ap.add_argument("--n", type=int, default=20, help="questions of each kind (answerable, unanswerable)")
    ap.add_argument("--style", choices=("cited", "plain"), action="append", help="prompt style(s); default both")
    ap.add_argument("--out", type=Path, help="per-question JSON lines")
    args = ap.parse_args(argv)
    data = args.data or next((p for p in DEFAULT_DATA if p.exists()), None)
    if data is None:
        ap.error("no LoCoMo file found; pass --data")
    sample = json.loads(data.read_text(encoding="utf-8"))
    sample = sample[0] if isinstance(sample, list) else sample
    answerable = [q for q in sample["qa"] if q.get("category") in (1, 2, 3, 4)][: args.n]
    unanswerable = [q for q in sample["qa"] if q.get("category") == 5][: args.n]
    asked = last_session_date(sample)
    out = open(args.out, "w", encoding="utf-8") if args.out else None  # noqa: SIM115 (kept open for the run)
    summary = []
    with tempfile.TemporaryDirectory(prefix="rawrag-abstain-") as tmp:
        for style in args.style or ["plain", "cited"]:
            mem = Memory.open(tmp, reader={"prompt": style})
            mem.import_path(data, fmt="locomo")
            counts = {"answerable": [0, 0, 0], "unanswerable": [0, 0, 0]}  # asked, abstained, flagged
            started = time.perf_counter()
            for kind, questions in (("answerable", answerable), ("unanswerable", unanswerable)):
                for qa in questions:
                    ans = mem.ask(qa["question"], date=asked)
                    abstained = is_abstention(ans.answer)
                    c = counts[kind]
                    c[0] += 1
                    c[1] += abstained
                    c[2] += (not abstained) and ans.unsupported
                    row = {"style": style, "kind": kind, "question": qa["question"], "answer": ans.answer,
                           "abstained": abstained, "unsupported": ans.unsupported,
                           "reader_said": ans.reader_said, "correction": ans.correction}
                    verdict = "ABSTAIN" if abstained else "flagged" if ans.unsupported else "answer"
                    print(f"{style:5} {kind:12} {verdict:7} {qa['question'][:50]!r} -> {ans.answer[:50]!r}",
                          file=sys.stderr, flush=True)
                    if out:
                        out.write(json.dumps(row, ensure_ascii=False) + "\n")
                        out.flush()
            seconds = (time.perf_counter() - started) / max(1, sum(c[0] for c in counts.values()))
            summary.append((style, counts, seconds))
            mem.close()
    print(f"\nAbstention, LoCoMo {data.name}, bundled reader, prompt v{PROMPT_VERSION}")
    print("| prompt | false abstention (answerable) | honest on unanswerable (abstained + flagged) | s/question |")
    print("|---|---|---|---|")
    for style, counts, seconds in summary:
        a, u = counts["answerable"], counts["unanswerable"]
        print(f"| {style} | {a[1]}/{a[0]} ({100 * a[1] / max(a[0], 1):.0f}%) | "
              f"{u[1] + u[2]}/{u[0]} ({100 * (u[1] + u[2]) / max(u[0], 1):.0f}%: {u[1]} abstained, {u[2]} flagged; "
              f"answerable flagged {a[2]}/{a[0]}) | {seconds:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
