import json
from itertools import pairwise

import pytest

from rawrag_tui.index.serialise import message_line
from rawrag_tui.index.windowing import cut_windows, encoding
from rawrag_tui.settings import WindowSettings

from .conftest import LOCOMO


def locomo_lines():
    if not LOCOMO.exists():
        pytest.skip("the LoCoMo dev conversation is not in shared/data")
    conv = json.loads(LOCOMO.read_text())[0]["conversation"]
    keys = sorted((int(k.split("_")[1]), k) for k in conv if k.startswith("session_") and not k.endswith("date_time"))
    return [message_line(None, t["speaker"], t["text"], [t["blip_caption"]] if t.get("blip_caption") else [])
            for _, k in keys for t in conv[k]]


def test_serialisation_is_the_papers_line():
    assert message_line("2023-05-08T13:56:00", "Caroline", "Hi!", ["a photo of a dog"]) == (
        "[2023-05-08 Mon 13:56] Caroline: Hi! [shares a photo of a dog]"
    )
    assert message_line(None, "Mel", "no date") == "[unknown] Mel: no date"
    assert message_line("2024-01-01T10:00:00Z", "A", "x").startswith("[2024-01-01 Mon 10:00]")


def test_line_by_line_encoding_equals_whole_conversation_encoding():
    lines = locomo_lines() + [
        "[unknown] X: trailing spaces   ", "[unknown] Y: two\n\nparagraphs\n", "[unknown] Z: émoji 🎉."]
    enc = encoding()
    whole = enc.encode_ordinary("".join(line + "\n" for line in lines))
    per_line = [t for line in lines for t in enc.encode_ordinary(line + "\n")]
    assert whole == per_line


def test_windows_are_256_tokens_every_224_and_cover_everything():
    lines = locomo_lines()
    settings = WindowSettings()
    windows = cut_windows(lines, settings)
    total = sum(len(encoding().encode_ordinary(line + "\n")) for line in lines)
    assert all(w.token_end - w.token_start == 256 for w in windows[:-1])
    assert [w.token_start for w in windows] == list(range(0, 224 * len(windows), 224))
    assert windows[-1].token_end == total
    # each window's overlap with the next is exactly 32 tokens
    assert all(a.token_end - b.token_start == 32 for a, b in pairwise(windows))


def test_each_window_maps_to_exactly_the_messages_it_overlaps():
    lines = locomo_lines()
    enc = encoding()
    starts, pos = [], 0
    for line in lines:
        starts.append(pos)
        pos += len(enc.encode_ordinary(line + "\n"))
    ends = starts[1:] + [pos]
    for w in cut_windows(lines, WindowSettings()):
        overlapping = [i for i in range(len(lines)) if starts[i] < w.token_end and ends[i] > w.token_start]
        assert (w.first_message, w.last_message) == (overlapping[0], overlapping[-1])


def test_short_conversation_is_one_window_and_empty_is_none():
    windows = cut_windows(["[unknown] A: hello"], WindowSettings())
    assert len(windows) == 1 and windows[0].text == "[unknown] A: hello"
    assert cut_windows([], WindowSettings()) == []


@pytest.mark.parametrize("tokens,stride", [(64, 48), (128, 128)])
def test_other_window_settings_are_honoured(tokens, stride):
    windows = cut_windows(locomo_lines(), WindowSettings(tokens=tokens, stride=stride))
    assert all(w.token_end - w.token_start == tokens for w in windows[:-1])
    assert all(b.token_start - a.token_start == stride for a, b in pairwise(windows))
