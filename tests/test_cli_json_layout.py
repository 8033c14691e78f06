"""--json a person can read, --pretty and --jsonl (commands/common.py print_json), through the real CLI."""

from __future__ import annotations

import json

from tests.conftest import run_cli
from tests.importers_support import FIXTURES


def test_json_is_one_line_in_a_pipe_indented_with_pretty_one_hit_per_line_with_jsonl(home):
    assert run_cli("import", str(FIXTURES / "chatgpt" / "single"), "--no-embed", home=home)[0] == 0

    code, out, _ = run_cli("search", "the", "--mode", "lexical", "--json", home=home)
    assert code == 0 and out.count("\n") == 1  # a pipe: one object, one line
    hits = json.loads(out)["hits"]
    assert hits  # with --jsonl each of them is a line of its own, without the summary around it

    code, out, _ = run_cli("search", "the", "--mode", "lexical", "--pretty", home=home)  # --pretty implies --json
    assert code == 0 and out.startswith("{\n  ") and json.loads(out)["hits"] == hits

    code, out, _ = run_cli("search", "the", "--mode", "lexical", "--jsonl", home=home)
    lines = out.splitlines()
    assert code == 0 and [json.loads(line) for line in lines] == hits

    # An object with no list of items is one line of its own.
    code, out, _ = run_cli("status", "--jsonl", home=home)
    assert code == 0 and len(out.splitlines()) == 1 and "conversations" in json.loads(out)
