"""What the reader's runtime choices cost: the portable build, the process boundary.

1. Portable vs native build: prompt tokens/s of the installed (portable,
   x86-64-v3) llama-cpp-python against another build of the same version
   (``--native-lib DIR``: a ``pip install --target DIR`` of a ``-march=native``
   wheel), each in its own reader process, interleaved, on the same prompts.
2. Isolation: time to first token with llama.cpp in this process (LlamaReader)
   against the reader in its own process (ReaderProcess), cold (load included)
   and warm (a second, different question), on the same prompt.

Prints the machine, absolute figures, and ratios against the reference
measured in the same run (machines here are noisy). Run by hand:

    python bench/reader_runtime.py [--native-lib /tmp/native_lib] [--reps 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rawrag_tui.answer.prompts import build_prompt  # noqa: E402
from rawrag_tui.doctor import cpu_flags, demo_evidence  # noqa: E402
from rawrag_tui.models.gguf import BUNDLED_READER  # noqa: E402
from rawrag_tui.models.reader_process import ReaderProcess, compiled_features, packaged_launch  # noqa: E402
from rawrag_tui.settings import load_settings  # noqa: E402


def prompt(rep: int, question: str = "Where does Jordan live now?", lines: int = 40) -> str:
    # A different first line per repetition: nothing comes from the prompt cache.
    return f"Run {rep}.\n" + build_prompt(question, demo_evidence(lines), "2026-12-01", "plain")


def prefill_rate(reader, text: str) -> float:
    list(reader.answer(text, max_tokens=1))
    p = reader.last_prefill
    return (p["prompt_tokens"] - p["cached_tokens"]) / p["seconds"]


def builds(settings, native_lib: str | None, reps: int) -> None:
    launch = packaged_launch(BUNDLED_READER, settings)
    readers = {"portable (installed)": ReaderProcess(launch)}
    if native_lib:
        saved = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = native_lib
        readers["native (--native-lib)"] = ReaderProcess(launch)
        os.environ.pop("PYTHONPATH") if saved is None else os.environ.__setitem__("PYTHONPATH", saved)
    rates: dict[str, list[float]] = {name: [] for name in readers}
    for rep in range(reps):
        for name, reader in readers.items():
            rates[name].append(prefill_rate(reader, prompt(rep)))
    base = statistics.median(rates["portable (installed)"])
    tokens = readers["portable (installed)"].last_prefill["prompt_tokens"]
    print(f"\n## prompt reading, {tokens} tokens, median of {reps}")
    print("| build | features | prompt tokens/s | x portable |\n|---|---|---:|---:|")
    for name, reader in readers.items():
        med = statistics.median(rates[name])
        feats = " ".join(f for f in compiled_features(reader.info["system_info"]) if f not in ("OPENMP", "REPACK"))
        print(f"| {name} | {feats} | {med:.1f} | x{med / base:.2f} |")
        reader.close()


def isolation(settings, reps: int) -> None:
    from rawrag_tui.models.gguf import locate
    from rawrag_tui.models.llama_reader import LlamaReader

    path = locate(BUNDLED_READER, settings.models_dir)
    results: dict[str, dict[str, list[float]]] = {"in process": {"cold": [], "warm": []},
                                                   "own process": {"cold": [], "warm": []}}
    for rep in range(reps):
        for mode in results:
            started = time.perf_counter()
            reader = (LlamaReader(path, threads=settings.models.threads) if mode == "in process"
                      else ReaderProcess(packaged_launch(BUNDLED_READER, settings)))
            phases = (("cold", prompt(100 + rep)), ("warm", prompt(200 + rep, "What is Jordan's dog called?")))
            for phase, text in phases:
                if phase == "warm":
                    started = time.perf_counter()
                first = None
                for _ in reader.answer(text, max_tokens=8):  # read to the end: the process stays warm
                    first = first or time.perf_counter() - started
                results[mode][phase].append(first or time.perf_counter() - started)
            reader.close()
    print(f"\n## first token, seconds, median of {reps} (cold: load + read + first token; warm: a second question)")
    print("| reader | cold | warm | cold x in-process | warm x in-process |\n|---|---:|---:|---:|---:|")
    ref = {k: statistics.median(v) for k, v in results["in process"].items()}
    for mode, phases in results.items():
        cold, warm = statistics.median(phases["cold"]), statistics.median(phases["warm"])
        print(f"| {mode} | {cold:.2f} | {warm:.2f} | x{cold / ref['cold']:.2f} | x{warm / ref['warm']:.2f} |")


def batches_and_threads(settings, reps: int) -> None:
    """Prompt tokens/s per llama.cpp batch size and thread count (reader.batch, models.threads)."""
    import dataclasses

    rows = []
    cpus = os.cpu_count() or 1
    for threads in sorted({1, cpus}):
        for batch in (128, 256, 512):
            tuned = dataclasses.replace(settings, models=dataclasses.replace(settings.models, threads=threads),
                                        reader=dataclasses.replace(settings.reader, batch=batch))
            reader = ReaderProcess(packaged_launch(BUNDLED_READER, tuned))
            rates = [prefill_rate(reader, prompt(300 + rep)) for rep in range(reps)]
            rows.append((threads, batch, statistics.median(rates)))
            reader.close()
    base = next(r for t, b, r in rows if t == cpus and b == 512)
    print(f"\n## prompt reading by threads and batch, median of {reps} (x: against {cpus} threads, batch 512)")
    print("| threads | batch | prompt tokens/s | x |\n|---:|---:|---:|---:|")
    for threads, batch, rate in rows:
        print(f"| {threads} | {batch} | {rate:.1f} | x{rate / base:.2f} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--native-lib", help="a folder holding another llama_cpp build (pip install --target)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--skip-isolation", action="store_true")
    ap.add_argument("--skip-builds", action="store_true")
    ap.add_argument("--batches", action="store_true", help="also sweep reader.batch and the thread count")
    args = ap.parse_args()
    model, flags = cpu_flags()
    print(f"# machine: {model or platform.processor()} ({os.cpu_count()} CPUs, "
          f"{'AVX-512' if 'avx512f' in flags else 'no AVX-512'}, {'AMX' if 'amx_tile' in flags else 'no AMX'}), "
          f"Python {platform.python_version()}")
    with tempfile.TemporaryDirectory() as home:
        settings = load_settings(Path(home))
        if not args.skip_builds:
            builds(settings, args.native_lib, args.reps)
        if not args.skip_isolation:
            isolation(settings, args.reps)
        if args.batches:
            batches_and_threads(settings, args.reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
