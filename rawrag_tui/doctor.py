"""``rawrag doctor``: every part checked and run once, each failure naming its fix.

Why it runs things instead of only looking: the failures people hit are
native (a llama.cpp build that dies on this CPU, an ONNX Runtime without the
provider they expected), and only running the model shows them. The reader
runs in its own process on a prompt of 512+ tokens, long enough for the
batched matrix kernels that crash a wrong build; a one-token prompt passes on
a broken build.

Each check is a :class:`Check`; the report is JSON-ready (docs/cli.md documents
its shape). Nothing here is a face: ``toolkit.doctor`` calls :func:`diagnose`.
"""

from __future__ import annotations

import functools
import json
import os
import platform
import shutil
import stat
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .errors import UserError
from .settings import Settings

#: Below this much free space in the home directory, imports and model
#: assembly (the bundled reader is 491 MB) may fail.
MIN_FREE_BYTES = 1 << 30
#: The reader check's prompt is at least this long, in the reader's tokens.
READER_PROMPT_TOKENS = 512

#: llama.cpp system-info names -> Linux /proc/cpuinfo flags.
BUILD_TO_CPU = {
    "SSE3": "pni", "SSSE3": "ssse3", "AVX": "avx", "AVX2": "avx2", "F16C": "f16c", "FMA": "fma",
    "BMI2": "bmi2", "AVX_VNNI": "avx_vnni", "AVX512": "avx512f", "AVX512_VBMI": "avx512_vbmi",
    "AVX512_VNNI": "avx512_vnni", "AVX512_BF16": "avx512_bf16", "AMX_INT8": "amx_int8",
}


@dataclass
class Check:
    name: str
    ok: bool
    summary: str
    fix: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class DoctorReport:
    ok: bool
    checks: list[Check]

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "checks": [asdict(c) for c in self.checks]}


def cpu_flags() -> tuple[str, set[str]]:
    """(model name, feature flags) from /proc/cpuinfo; ("", set()) elsewhere."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "", set()
    model, flags = "", set[str]()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "model name" and not model:
            model = value.strip()
        elif key == "flags" and not flags:
            flags = set(value.split())
    return model, flags


def check_cpu() -> Check:
    from .models import reader_build

    model, flags = cpu_flags()
    machine = platform.machine()
    interesting = sorted(f for f in flags if f in set(BUILD_TO_CPU.values()) | {"amx_tile", "amx_bf16"})
    details = {"model": model, "machine": machine, "features": interesting}
    if machine.lower() not in ("x86_64", "amd64") or not flags:
        return Check("cpu", True, f"{model or machine}: not an x86-64 Linux CPU list; nothing to compare",
                     details=details)
    missing = [f for f in reader_build.REQUIRED_CPU_FLAGS if f not in flags]
    details["missing_for_portable_build"] = missing
    if missing:
        return Check("cpu", False, f"{model}: lacks {', '.join(missing)}, which the portable reader build needs",
                     "build llama-cpp-python for this CPU: CMAKE_ARGS=-DGGML_NATIVE=ON "
                     "pip install --force-reinstall --no-cache-dir llama-cpp-python", details)
    return Check("cpu", True, f"{model}: {' '.join(interesting)}", details=details)


def build_mismatch(features: list[str], flags: set[str]) -> list[str]:
    """Build features this CPU lacks, and AMX (its llama.cpp kernels crash: reader_build.py)."""
    bad = []
    for feature in features:
        if feature.startswith("AMX"):
            bad.append(f"{feature} (llama.cpp's AMX kernels crash with SIGILL)")
        elif flags and feature in BUILD_TO_CPU and BUILD_TO_CPU[feature] not in flags:
            bad.append(f"{feature} (not on this CPU)")
    return bad


def check_runtime(settings: Settings) -> Check:
    from .models.runtime import provider_report

    report = provider_report(settings)
    if report.get("error"):
        return Check("onnxruntime", False, report["error"], "set [models] device = \"cpu\" in config.toml",
                     report)
    return Check("onnxruntime", True,
                 f"onnxruntime {report['onnxruntime']} on {report['device']} ({report['reason']}); "
                 f"available: {', '.join(report['available_providers'])}", details=report)


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - started


def check_embedder(settings: Settings) -> Check:
    from .models import load_embedder

    try:
        model, load_s = _timed(lambda: load_embedder(settings))
        vectors, run_s = _timed(lambda: model.embed(["Where does Jordan live now?"], kind="query"))
    except UserError as exc:
        return Check("embedder", False, str(exc), "reinstall rawrag, or `rawrag models pull PROFILE`")
    norm = float((vectors[0] ** 2).sum()) ** 0.5
    ok = vectors.shape == (1, model.dims) and abs(norm - 1.0) < 1e-3
    return Check("embedder", ok, f"{model.fingerprint}: {model.dims}-d, loaded in {load_s:.1f} s, "
                 f"one query in {run_s * 1000:.0f} ms",
                 None if ok else "the embedder returned a malformed vector: reinstall rawrag",
                 {"fingerprint": model.fingerprint, "dims": model.dims, "load_seconds": round(load_s, 3),
                  "run_seconds": round(run_s, 4), "norm": round(norm, 5)})


def check_reranker(settings: Settings) -> Check:
    from .models import load_reranker

    try:
        model, load_s = _timed(lambda: load_reranker(settings))
        if model is None:
            return Check("reranker", True,
                         f"profile {settings.models.profile!r} has none: the fused order passes through")
        scores, run_s = _timed(lambda: model.score("Where does Jordan live?", ["I moved to Lisbon in March."]))
    except UserError as exc:
        return Check("reranker", False, str(exc), f"`rawrag models pull {settings.models.profile}`")
    return Check("reranker", True, f"{model.name}: one pair scored {scores[0]:.3f} in {run_s * 1000:.0f} ms",
                 details={"name": model.name, "load_seconds": round(load_s, 3), "run_seconds": round(run_s, 4)})


@functools.lru_cache(maxsize=1)
def _demo_rows() -> tuple[dict, ...]:
    from .demo import demo_path

    return tuple(json.loads(line) for line in demo_path().read_text(encoding="utf-8").splitlines() if line)


def demo_evidence(lines: int) -> str:
    """``lines`` numbered evidence lines from the demo history, repeating it as needed."""
    rows = _demo_rows()
    picked = (rows[i % len(rows)] for i in range(lines))
    return "\n".join(f"[{n}] {r['timestamp'][:10]}, {r['speaker']}: {r['text']}" for n, r in enumerate(picked, 1))


def reader_prompt(count_tokens: Callable[[str], int]) -> tuple[str, str]:
    """A real question over the demo history, grown to 512+ reader tokens."""
    from .answer.prompts import build_prompt

    question = "Where does Jordan live now?"
    lines = 0
    while True:
        lines += 1
        prompt = build_prompt(question, demo_evidence(lines), "2026-12-01", "plain")
        if count_tokens(prompt) >= READER_PROMPT_TOKENS:
            return question, prompt


@dataclass(frozen=True)
class TimedAnswer:
    question: str
    prompt_tokens: int
    #: Seconds to the first streamed piece (the whole read when none came), and in all.
    first_token: float
    seconds: float
    answer: str


def timed_answer(reader: Any) -> TimedAnswer:
    """The doctor's real question (:func:`reader_prompt`) read by ``reader``, timed to its first token."""
    question, prompt = reader_prompt(reader.count_tokens)
    prompt_tokens = reader.count_tokens(prompt)
    started = time.perf_counter()
    first: float | None = None
    pieces = []
    for piece in reader.answer(prompt, max_tokens=16):
        if first is None:
            first = time.perf_counter() - started
        pieces.append(piece)
    total = time.perf_counter() - started
    return TimedAnswer(question, prompt_tokens, total if first is None else first, total, "".join(pieces).strip())


def evidence_budget_at(settings: Settings, rate: float, question: str, count_tokens: Callable[[str], int]) -> int:
    """The evidence ``question`` gets at ``rate`` prompt tokens/s once the
    reader is warm (its fixed prefix cached), as ``rawrag ask`` sizes it."""
    from .answer.budget import after_prefix, timed_budget
    from .answer.prompts import build_prompt
    from .models.protocols import Warmed
    from .models.registry import evidence_ceiling

    ceiling = evidence_ceiling(settings)
    if settings.reader.first_token_seconds <= 0:
        return ceiling
    rest = after_prefix(count_tokens(build_prompt(question, "", "2026-12-01", "plain")), count_tokens, "plain")
    return timed_budget(ceiling, Warmed(rate, 0, 0.0), settings.reader.first_token_seconds,
                        settings.reader.min_evidence_tokens, rest)


def check_reader(settings: Settings, flags: set[str]) -> list[Check]:
    """Two checks: the llama.cpp build (as the reader's process reports it) and the reader run once."""
    from .errors import ReaderCrashed
    from .models import load_reader, reader_build
    from .models.reader_process import ReaderProcess, compiled_features, llama_cpp_version

    fix = reader_build.install_command()
    try:
        reader, load_s = _timed(lambda: load_reader(settings))
    except ReaderCrashed as exc:
        return [Check("llama.cpp build", False, str(exc), fix),
                Check("reader", False, "the reader's process died while loading", fix)]
    except UserError as exc:
        return [Check("llama.cpp build", False, f"llama-cpp-python {llama_cpp_version()}: {exc}", fix),
                Check("reader", False, str(exc), f"pip install 'rawrag-tui[reader]' (or {fix})")]
    assert isinstance(reader, ReaderProcess)
    info = reader.info
    features = compiled_features(info.get("system_info", ""))
    bad = build_mismatch(features, flags)
    build = Check(
        "llama.cpp build", not bad,
        f"llama-cpp-python {info.get('llama_cpp_python')}: {info.get('system_info', '').strip()}"
        + (f"; unsafe here: {', '.join(bad)}" if bad else ""),
        fix if bad else None,
        {"llama_cpp_python": info.get("llama_cpp_python"), "system_info": info.get("system_info"),
         "features": features, "gpu_offload": info.get("gpu_offload"), "unsafe": bad},
    )
    try:
        timed = timed_answer(reader)
        question, prompt_tokens, total = timed.question, timed.prompt_tokens, timed.seconds
        first, answer = timed.first_token, timed.answer
        prefill = reader.last_prefill
        rate = prefill.get("prompt_tokens", 0) / prefill["seconds"] if prefill.get("seconds") else 0.0
        budget = evidence_budget_at(settings, rate, question, reader.count_tokens)
    except ReaderCrashed as exc:
        return [build, Check("reader", False, str(exc), fix, {"model": reader.name})]
    except UserError as exc:
        return [build, Check("reader", False, str(exc), "run `rawrag doctor` again; reinstall the reader extra",
                             {"model": reader.name})]
    finally:
        reader.close()
    ok = bool(answer)
    return [build, Check(
        "reader", ok,
        f"{reader.name}: read {prompt_tokens} prompt tokens at {rate:.0f} tokens/s in its own process, "
        f"first token after {first:.1f} s, answered {answer[:60]!r}; "
        + (f"evidence budget at this speed: {budget:,} tokens, for a first token within "
           f"{settings.reader.first_token_seconds:g} s" if settings.reader.first_token_seconds > 0
           else f"evidence budget: {budget:,} tokens (reader.first_token_seconds = 0: whatever the wait)"),
        None if ok else "the reader answered nothing: check the model file (reinstall the reader extra)",
        {"model": reader.name, "path": info.get("path"), "threads": info.get("threads"),
         "gpu_layers": info.get("gpu_layers"), "load_seconds": round(load_s, 3),
         "prompt_tokens": prompt_tokens, "prompt_tokens_per_second": round(rate, 1),
         "first_token_seconds": round(first, 3), "seconds": round(total, 3),
         "evidence_budget": budget,
         "question": question, "answer": answer},
    )]


def check_reader_server(settings: Settings) -> Check:
    """The configured reader server end to end: the privacy rule (before any
    connection), reachable, the model served, and a 512+ token prompt's
    first-token time, which sizes the evidence as ``rawrag ask`` does."""
    from .models.openai_reader import EndpointReader

    r = settings.reader
    fix = "start the server, or `rawrag reader use bundled`; `rawrag reader list` shows what runs here"
    details: dict[str, Any] = {"endpoint": r.endpoint, "model": r.model}
    try:
        reader = EndpointReader(settings)
    except UserError as exc:
        return Check("reader server", False, str(exc), fix, details)
    try:
        served = reader.served()
        timed = timed_answer(reader)
        question, prompt_tokens, total, first_s = timed.question, timed.prompt_tokens, timed.seconds, timed.first_token
        rate = prompt_tokens / first_s if first_s > 0 else 0.0
        budget = evidence_budget_at(settings, rate, question, reader.count_tokens)
        context = reader.context_tokens
    except UserError as exc:
        return Check("reader server", False, str(exc), fix, details)
    finally:
        reader.close()
    answer = timed.answer
    details.update({"served": served, "context_tokens": context, "prompt_tokens": prompt_tokens,
                    "first_token_seconds": round(first_s, 3), "prompt_tokens_per_second": round(rate, 1),
                    "seconds": round(total, 3), "evidence_budget": budget, "answer": answer})
    return Check(
        "reader server", bool(answer),
        f"{r.model} at {reader.endpoint}: reachable, serves it; {prompt_tokens} prompt tokens, first token "
        f"after {first_s:.2f} s ({rate:.0f} tokens/s), answered {answer[:60]!r}; evidence budget at this "
        f"speed: {budget:,} tokens",
        None if answer else "the server answered nothing: check the model on the server", details)


def check_reader_servers(settings: Settings) -> Check:
    """Reader servers running on this machine's loopback ports (never anywhere
    else), each model with the one command that switches to it. Informational."""
    from .models.endpoint import discover

    found = discover()
    if not found:
        return Check("reader servers", True, "none on this machine's usual ports (Ollama 11434, LM Studio 1234, "
                     "llama-server 8080)", details={"servers": []})
    summary = "; ".join(f"{f.server} at {f.endpoint}: {', '.join(f.models[:4]) or 'no chat model'}" for f in found)
    commands = [c for f in found for c in f.commands]
    note = f" (switch: `{commands[0]}`)" if commands and not settings.reader.endpoint else ""
    return Check("reader servers", True, summary + note, details={"servers": [f.to_json() for f in found]})


def check_home(settings: Settings) -> Check:
    home = settings.home
    details: dict[str, Any] = {"path": str(home)}
    if not home.exists():
        return Check("home", True, f"{home}: not created yet (the first import creates it, 0700)", details=details)
    mode = stat.S_IMODE(home.stat().st_mode)
    free = shutil.disk_usage(home).free
    details.update({"mode": f"{mode:o}", "free_bytes": free})
    problems, fixes = [], []
    if mode & 0o077:
        problems.append(f"the directory is {mode:o}, readable by others")
        fixes.append(f"chmod 700 {home}")
    for path in sorted(home.glob("rawrag.db*")):
        file_mode = stat.S_IMODE(path.stat().st_mode)
        if file_mode & 0o077:
            problems.append(f"{path.name} is {file_mode:o}")
            fixes.append(f"chmod 600 {path}")
    if not os.access(home, os.W_OK):
        problems.append("not writable")
        fixes.append(f"chown $USER {home}")
    if free < MIN_FREE_BYTES:
        problems.append(f"only {free / 2**20:,.0f} MiB free")
        fixes.append("free disk space (imports and the reader model need over 1 GiB)")
    summary = f"{home}: {mode:o}, {free / 2**30:,.1f} GiB free"
    if problems:
        return Check("home", False, summary + "; " + "; ".join(problems), "; ".join(fixes), details)
    return Check("home", True, summary, details=details)


def check_sync_schedule() -> Check:
    """Whether `rawrag sync --install` put a schedule in place (none is fine: sync by hand or --watch)."""
    from .sync.schedule import installed

    found = installed()
    if found is None:
        return Check("sync schedule", True, "none installed (`rawrag sync --install` runs sync every 15 minutes)")
    return Check("sync schedule", True, f"{found['kind']}: rawrag sync every {found['every']} minutes "
                 f"({', '.join(found['files'])})", details=found)


def diagnose(settings: Settings) -> DoctorReport:
    _, flags = cpu_flags()
    checks = [check_cpu(), check_runtime(settings), check_embedder(settings), check_reranker(settings)]
    if settings.reader.endpoint:
        checks.append(check_reader_server(settings))
    else:
        checks += check_reader(settings, flags)
    checks.append(check_reader_servers(settings))
    checks.append(check_home(settings))
    checks.append(check_sync_schedule())
    return DoctorReport(all(c.ok for c in checks), checks)
