"""ONNX Runtime sessions, made in one place so every model runs the same way.

Why one place: the provider (CUDA or CPU), the thread count and the graph
options decide both speed and whether two machines give the same numbers, so
they are chosen on purpose here rather than left to each model's defaults.
``provider_report`` says what was chosen and why, for ``rawrag status``.

Also the checksum helpers every weight file goes through before it is loaded.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ModelError

if TYPE_CHECKING:  # pragma: no cover
    import onnxruntime

    from ..settings import Settings

CUDA = "CUDAExecutionProvider"
CPU = "CPUExecutionProvider"
_CHUNK = 1 << 20


def sha256_file(path: str | Path) -> str:
    """Hex SHA-256 of a file, read in 1 MiB chunks (weights are large)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def verify(path: str | Path, sha256: str, size: int | None = None) -> None:
    """Raise ModelError unless ``path`` exists and has this SHA-256 (and size).

    The size is checked first: it is free, and a truncated download is the
    usual failure.
    """
    path = Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: model file is missing")
    if size is not None:
        got_size = path.stat().st_size
        if got_size != size:
            raise ModelError(f"{path}: wrong size: expected {size:,} bytes, got {got_size:,}")
    got = sha256_file(path)
    if got.lower() != sha256.lower():
        raise ModelError(f"{path}: checksum mismatch: expected sha256 {sha256}, got {got}")


def physical_cores() -> int:
    """Physical cores this process may use (hyper-threads add little to GEMMs).

    Linux: distinct (physical id, core id) pairs in /proc/cpuinfo, capped by
    the CPU affinity mask (containers, taskset). Elsewhere: os.cpu_count().
    """
    try:
        allowed = len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        allowed = os.cpu_count() or 1
    cores: set[tuple[str, str]] = set()
    try:
        block: dict[str, str] = {}
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in list(handle) + [""]:
                if not line.strip():
                    if "core id" in block:
                        cores.add((block.get("physical id", "0"), block["core id"]))
                    block = {}
                    continue
                key, _, value = line.partition(":")
                block[key.strip()] = value.strip()
    except OSError:
        pass
    return max(1, min(allowed, len(cores) or allowed))


def _gpu_visible() -> tuple[bool, str]:
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None and visible.strip() in ("", "-1"):
        return False, f"CUDA_VISIBLE_DEVICES={visible!r} hides every GPU"
    gpus = Path("/proc/driver/nvidia/gpus")
    if gpus.is_dir() and any(gpus.iterdir()):
        return True, "an NVIDIA GPU is visible"
    if Path("/dev/nvidia0").exists() or Path("/dev/dxg").exists():  # dxg: WSL2
        return True, "an NVIDIA device node is present"
    return False, "no NVIDIA GPU is visible"


def choose_providers(settings: Settings | None) -> tuple[list[str], str]:
    """(providers in priority order, the reason in words)."""
    import onnxruntime as ort

    wanted = (settings.models.device if settings else "auto").lower()
    available = ort.get_available_providers()
    has_cuda_build = CUDA in available
    if wanted == "cpu":
        return [CPU], "models.device = cpu"
    if wanted == "cuda":
        if not has_cuda_build:
            raise ModelError(
                "models.device = cuda, but this onnxruntime has no CUDA provider: "
                "pip install onnxruntime-gpu (and uninstall onnxruntime), or set models.device = auto"
            )
        return [CUDA, CPU], "models.device = cuda"
    if wanted != "auto":
        raise ModelError(f"models.device = {wanted!r}: expected auto, cpu or cuda")
    if not has_cuda_build:
        return [CPU], "onnxruntime has no CUDA provider (onnxruntime-gpu not installed)"
    visible, why = _gpu_visible()
    if not visible:
        return [CPU], f"onnxruntime-gpu is installed but {why}"
    return [CUDA, CPU], f"onnxruntime-gpu is installed and {why}"


def intra_op_threads(settings: Settings | None) -> int:
    threads = settings.models.threads if settings else 0
    return threads if threads > 0 else physical_cores()


def session_options(settings: Settings | None, spin: bool = True) -> onnxruntime.SessionOptions:
    """``spin=False`` for work that runs beside the user (background embedding):
    idle threads then sleep instead of spinning; on a loaded 2-core machine
    that also ran the int8 embedder faster (x2.31 vs x2.09 of
    sentence-transformers, bench/embed_throughput.py)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    # One request at a time, every core on each operator: a GEMM-bound
    # transformer gains nothing from running operators side by side.
    options.intra_op_num_threads = intra_op_threads(settings)
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # All graph fusions (attention, layer norm, GELU); done at load, ~1 s.
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # The arena keeps activation buffers between calls: batches of similar
    # length (we batch by length) reuse them instead of re-allocating.
    options.enable_cpu_mem_arena = True
    # Memory patterns only pay for fixed shapes; ours vary with every batch.
    options.enable_mem_pattern = False
    options.log_severity_level = 3  # errors only: no provider fallback chatter
    if not spin:
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


def create_session(model_path: str | Path, settings: Settings | None = None,
                   spin: bool = True) -> onnxruntime.InferenceSession:
    """An InferenceSession on the chosen provider, or ModelError naming the file."""
    import onnxruntime as ort

    model_path = Path(model_path)
    if not model_path.is_file():
        raise ModelError(f"{model_path}: ONNX model file is missing")
    providers, _ = choose_providers(settings)
    provider_options: list[dict[str, Any]] = []
    for name in providers:
        if name == CUDA:
            # Grow the GPU arena only by what is asked: the GPU may be shared.
            provider_options.append({"arena_extend_strategy": "kSameAsRequested"})
        else:
            provider_options.append({})
    try:
        return ort.InferenceSession(
            str(model_path),
            sess_options=session_options(settings, spin),
            providers=providers,
            provider_options=provider_options,
        )
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own exception types
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ModelError(f"{model_path}: cannot load ONNX model: {first}") from None


def provider_report(settings: Settings | None = None) -> dict[str, Any]:
    """What ``create_session`` will use and why, without loading a model."""
    import onnxruntime as ort

    try:
        providers, reason = choose_providers(settings)
        error = None
    except ModelError as exc:
        providers, reason, error = [], str(exc), str(exc)
    report: dict[str, Any] = {
        "onnxruntime": ort.__version__,
        "available_providers": ort.get_available_providers(),
        "providers": providers,
        "device": "cuda" if providers[:1] == [CUDA] else ("cpu" if providers else None),
        "reason": reason,
        "intra_op_threads": intra_op_threads(settings),
        "physical_cores": physical_cores(),
        "graph_optimization": "all",
    }
    if error:
        report["error"] = error
    return report


def describe(settings: Settings | None = None) -> str:
    """One line for ``rawrag status``."""
    r = provider_report(settings)
    if r.get("error"):
        return f"onnxruntime {r['onnxruntime']}: {r['error']}"
    return (
        f"onnxruntime {r['onnxruntime']} on {r['device']} ({r['reason']}); "
        f"{r['intra_op_threads']} intra-op thread(s)"
    )


def active_providers(session: onnxruntime.InferenceSession) -> list[str]:
    """What a session really runs on (CUDA can fall back to CPU at load)."""
    return list(session.get_providers())
