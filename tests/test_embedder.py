"""The real bundled model: pinned checksums, sensible vectors, batching that changes nothing."""

import shutil

import numpy as np
import pytest

from rawrag_tui.errors import ModelError
from rawrag_tui.models.minilm import MODEL_FILE, WEIGHTS_FILE, MiniLMEmbedder, PinnedFile, verified_path


def test_vectors_are_normalised_and_meaningful(embedder):
    v = embedder.embed(["My dog Biscuit learned to swim at the beach", "Our terrier loves the sea",
                        "Quarterly tax filing deadline for companies"])
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.2


def test_batch_composition_and_order_do_not_change_vectors(embedder):
    texts = ["short", "a much longer sentence " * 20, "medium length text here", "x " * 300]
    together = embedder.embed(texts)
    alone = np.vstack([embedder.embed([t]) for t in texts])
    assert np.abs(together - alone).max() < 1e-4


def test_fingerprint_names_model_dims_weights_and_length(embedder):
    assert embedder.fingerprint == f"all-MiniLM-L6-v2-{embedder.variant}-fused1:384:{WEIGHTS_FILE.sha256[:16]}:max256"


def test_checksum_mismatch_is_refused(tmp_path):
    bad = tmp_path / "model.onnx"
    shutil.copy(MODEL_FILE.path(), bad)
    data = bytearray(bad.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(data))
    with pytest.raises(ModelError, match="checksum mismatch"):
        MiniLMEmbedder(model_path=bad, expected_sha256=MODEL_FILE.sha256)
    wrong_pin = PinnedFile(MODEL_FILE.package, MODEL_FILE.relative, "0" * 64, MODEL_FILE.size)
    with pytest.raises(ModelError, match=r"checksum mismatch: expected sha256 0{64}, got 8199be6f"):
        verified_path(wrong_pin)


def test_missing_weights_package_is_a_clear_error():
    with pytest.raises(ModelError, match="needs the package 'no_such_pkg'"):
        PinnedFile("no_such_pkg", "model.onnx", "0" * 64, 1).path()
