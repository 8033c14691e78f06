"""ONNX Runtime sessions, created in one place with options chosen on purpose."""

from __future__ import annotations

import os
from pathlib import Path


def physical_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # macOS
        return max(1, os.cpu_count() or 1)


def choose_providers(device: str = "auto") -> tuple[list[str], str]:
    """(providers, why): CUDA when asked or available, CPU otherwise."""
    import onnxruntime as ort

    available = ort.get_available_providers()
    has_cuda = "CUDAExecutionProvider" in available
    if device == "cpu":
        return ["CPUExecutionProvider"], "CPU forced by settings (models.device = cpu)"
    if device == "cuda":
        if not has_cuda:
            from ..errors import ModelError

            raise ModelError("models.device = cuda but this onnxruntime has no CUDA provider: pip install onnxruntime-gpu")
        return ["CUDAExecutionProvider", "CPUExecutionProvider"], "CUDA forced by settings"
    if has_cuda:
        return ["CUDAExecutionProvider", "CPUExecutionProvider"], "onnxruntime-gpu found a CUDA provider"
    return ["CPUExecutionProvider"], "no CUDA provider in this onnxruntime (pip install onnxruntime-gpu for a GPU)"


def create_session(model_path: Path, device: str = "auto", threads: int = 0):
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # One intra-op thread per core; inter-op parallelism only adds contention
    # for these sequential encoder graphs.
    options.intra_op_num_threads = threads or physical_cores()
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    providers, _ = choose_providers(device)
    return ort.InferenceSession(str(model_path), sess_options=options, providers=providers)


def provider_report(device: str = "auto") -> dict:
    providers, why = choose_providers(device)
    return {"provider": providers[0], "why": why}
