"""Evidence packing with a word-counting tokenizer double (the real GGUF
tokenizer is exercised in tests/test_reader_llama.py)."""

from rawrag_tui.answer.packing import CUT_MARK, GAP_LINE, pack_evidence, prompt_day
from rawrag_tui.search.types import EvidenceMessage, Hit


def words(text: str) -> int:
    return len(text.split())


def msg(mid, seq, text, conv=1, ts="2023-05-08T13:56:00", speaker="Caroline", captions=()):
    return EvidenceMessage(
        message_id=mid,
        external_id=f"D1:{seq}",
        conversation_id=conv,
        conversation=f"chat {conv}",
        seq=seq,
        timestamp=ts,
        speaker=speaker,
        role="user",
        text=text,
        captions=tuple(captions),
    )


def hit(rank, *messages, conv=1):
    return Hit(window_id=rank * 100, conversation_id=conv, conversation=f"chat {conv}", rank=rank,
               text="", messages=list(messages))


def test_dedup_group_by_conversation_time_order_and_numbering():
    a1 = msg(1, 1, "I went hiking", ts="2023-05-08T13:56:00")
    a2 = msg(2, 2, "Nice!", speaker="Mel", ts="2023-05-08T13:57:00")
    a5 = msg(5, 5, "Back home now", ts="2023-05-09T09:00:00")
    b1 = msg(9, 1, "Other chat first", conv=2, ts="2023-01-01T00:00:00Z")
    hits = [hit(2, a5, a2), hit(1, a1, a2), hit(3, b1, conv=2)]
    packed = pack_evidence(hits, budget=1000, count_tokens=words)
    assert packed.dropped_windows == 0 and packed.kept_windows == 3
    assert [m.message_id for m in packed.messages] == [9, 1, 2, 5]  # conv 2 is older
    lines = packed.text.splitlines()
    assert lines[0] == "Conversation: chat 2"
    assert lines[1:3] == ["1 January 2023:", "[1] Caroline: Other chat first"]
    # one line per day, before its first message; no time of day
    assert lines[3:5] == ["", "Conversation: chat 1"]
    assert lines[5:8] == ["8 May 2023:", "[2] Caroline: I went hiking", "[3] Mel: Nice!"]
    # seq 2 -> 5 is not contiguous: a gap line marks skipped turns, then the new day
    assert lines[8:] == [GAP_LINE, "9 May 2023:", "[4] Caroline: Back home now"]
    assert packed.cite(4).message_id == 5 and packed.cite(5) is None and packed.cite(0) is None
    assert packed.tokens == words(packed.text)


def test_captions_and_missing_dates_are_written():
    m = msg(1, 1, "look", ts=None, captions=["a photo of a dog"])
    packed = pack_evidence([hit(1, m)], budget=100, count_tokens=words)
    assert "unknown date:\n[1] Caroline: look [shares a photo of a dog]" in packed.text


def test_lowest_ranked_windows_dropped_first_and_counted():
    top = [msg(i, i, "word " * 10) for i in range(1, 4)]
    mid = [msg(i, i, "word " * 10) for i in range(10, 13)]
    low = [msg(i, i, "word " * 10) for i in range(20, 23)]
    hits = [hit(3, *low), hit(1, *top), hit(2, *mid)]
    everything = pack_evidence(hits, budget=10_000, count_tokens=words)
    two = pack_evidence(hits, budget=everything.tokens - 20, count_tokens=words)
    assert two.dropped_windows == 1 and two.kept_windows == 2
    assert {m.message_id for m in two.messages} == {1, 2, 3, 10, 11, 12}
    assert two.tokens <= everything.tokens - 20
    one = pack_evidence(hits, budget=60, count_tokens=words)
    assert one.dropped_windows == 2
    assert {m.message_id for m in one.messages} == {1, 2, 3}


def test_a_lower_window_whose_messages_are_in_costs_nothing():
    a, b, c = msg(1, 1, "x " * 30), msg(2, 2, "y " * 30), msg(3, 3, "z " * 30)
    hits = [hit(1, a, b), hit(2, c), hit(3, b)]
    packed = pack_evidence(hits, budget=80, count_tokens=words)
    assert packed.kept_windows == 2 and packed.dropped_windows == 1  # c does not fit
    assert {m.message_id for m in packed.messages} == {1, 2}


def test_top_window_too_long_is_shortened_not_dropped():
    long = msg(1, 1, "blah " * 500)
    short = msg(2, 2, "short reply")
    packed = pack_evidence([hit(1, long, short), hit(2, msg(3, 3, "more"))], budget=60, count_tokens=words)
    assert packed.shortened == [1]
    assert packed.tokens <= 60
    assert "short reply" in packed.text and CUT_MARK.strip() in packed.text
    assert packed.dropped_windows == 1


def test_empty_hits_pack_to_nothing():
    packed = pack_evidence([], budget=100, count_tokens=words)
    assert packed.text == "" and packed.messages == [] and packed.tokens == 0


def test_timestamp_formats():
    # One line per day: no time of day, whatever the export recorded.
    assert prompt_day("2023-05-08T00:00:00") == "8 May 2023"
    assert prompt_day("2023-05-08T13:56:00Z") == "8 May 2023"
    assert prompt_day(None) == "unknown date"
    assert prompt_day("sometime") == "sometime"
