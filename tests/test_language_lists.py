"""No module of the answer path outside rawrag_tui/lang holds a word of any language.

What only makes sense in one language (English stop words, "yesterday",
"May", a question starting "When", 3月21日) belongs in that language's module
under rawrag_tui/lang, where it runs only on text detected to be in it. This
test reads the answer path's source with ``ast`` and fails, naming file and
line, on any of these outside rawrag_tui/lang:

1. **A regex with words in it.** For each call ``re.compile/search/match/
   fullmatch/findall/finditer/sub/subn/split``, every string constant in its
   pattern argument (names resolved to the module's own constants, f-string
   parts included) is stripped of regex syntax made of letters (escapes such
   as ``\\b`` ``\\d``, ``(?P<name>``, ``(?P=name)``, inline flags); what is left
   may hold no run of three or more ASCII letters and no letter of another
   alphabet (so "moved|instead" and "いつ" fail, ``\\b\\d{1,2}:\\d{2}\\b`` passes).
2. **A word list.** Any other string constant that is not prose and holds
   two or more ASCII letter runs of three or more letters ("move moved
   moves", "the week before"; an identifier such as "later_values" is one
   run, not words), or one word the English module knows (every
   letter run of three or more in lang/en.py's own string constants, its
   docstrings left out: "yesterday", "monday", "what").
   *Prose* is what a person or the reader is told, not matched against
   text: a constant of four words or more with a capital letter or sentence
   punctuation (the prompt, "Not in your history."). Left out as well:
   docstrings and bare string statements, the literal parts of f-strings
   (messages built for the faces), and constants inside ``raise`` statements.
3. **A CJK word.** Any string constant, prose or not, holding a Chinese,
   Japanese or Korean character.

:data:`SHOWN` lists, with the reason, the few short constants that rule 2
would take for words but that are shown or named, never matched against a
message ("unknown date" stands in an evidence line for a missing date).

The answer path: every module under rawrag_tui/answer, and the shared
word helpers it and the search highlighting use (rawrag_tui/words.py,
rawrag_tui/search/highlight.py). The checker itself is tested on sources
that break each rule, so the tree passing means something.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rawrag_tui"
ANSWER_PATH = sorted({*(PACKAGE / "answer").rglob("*.py"), PACKAGE / "words.py", PACKAGE / "search" / "highlight.py"})
RE_CALLS = {"compile", "search", "match", "fullmatch", "findall", "finditer", "sub", "subn", "split"}
_LETTERS = re.compile(r"[A-Za-z]{3,}")
#: Letter runs, identifiers whole: "later_values" names a setting, it is no two words.
_TOKEN = re.compile(r"[A-Za-z_]+")
_REGEX_SYNTAX = re.compile(r"\\[A-Za-z]|\(\?P<\w+>|\(\?P=\w+\)|\(\?[aiLmsux]+[:)]")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_SENTENCE = re.compile(r"[A-Z]|[.,;:!?\"]")


#: (module, constant): short texts shown or used as names, never matched against a message's words.
SHOWN = {
    ("answer/packing.py", "unknown date"),  # what an evidence line says in place of a missing date
    ("answer/reading.py", "other"),  # the backend name of a reader that names none
    ("answer/reading.py", "name"),  # an attribute read with getattr (a reader's name)
    ("answer/options.py", "off"),  # a value of the reader.hints setting, read from config.toml
}


def _docstring_nodes(tree: ast.AST) -> set[int]:
    """ids of string constants that are statements on their own (docstrings, attribute docs)."""
    return {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}


def _inside(tree: ast.AST, kinds: tuple[type, ...]) -> set[int]:
    return {id(sub) for node in ast.walk(tree) if isinstance(node, kinds) for sub in ast.walk(node)}


def _strings(node: ast.AST, constants: dict[str, ast.AST], seen: set[str] | None = None) -> list[ast.Constant]:
    """String constants in ``node``, names of the module's own constants followed."""
    seen = set() if seen is None else seen
    out = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out.append(sub)
        elif isinstance(sub, ast.Name) and sub.id in constants and sub.id not in seen:
            seen.add(sub.id)
            out.extend(_strings(constants[sub.id], constants, seen))
    return out


def is_prose(text: str) -> bool:
    return len(text.split()) >= 4 and bool(_SENTENCE.search(text))


def findings(source: str, vocabulary: frozenset[str], where: str = "<source>") -> list[str]:
    """What breaks the module doc's three rules in ``source``, one line each."""
    tree = ast.parse(source)
    constants = {t.id: node.value for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)
                 for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
                 if isinstance(t, ast.Name) and node.value is not None}
    docs = _docstring_nodes(tree)
    formatted = _inside(tree, (ast.JoinedStr,))
    raised = _inside(tree, (ast.Raise,))
    out: list[str] = []
    in_regex: set[int] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RE_CALLS
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"):
            pattern = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "pattern"), None)
            if pattern is None:
                continue
            for const in _strings(pattern, constants):
                in_regex.add(id(const))
                bare = _REGEX_SYNTAX.sub("", const.value)
                words = _LETTERS.findall(bare) + [c for c in bare if c.isalpha() and not c.isascii()]
                if words:
                    out.append(f"{where}:{const.lineno}: regex with words {sorted(set(words))[:5]}")
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in docs:
            continue
        text = node.value
        if _CJK.search(text):
            out.append(f"{where}:{node.lineno}: CJK text {text[:20]!r}")
            continue
        if id(node) in in_regex or id(node) in formatted or id(node) in raised or is_prose(text) \
                or (where, text) in SHOWN:
            continue
        runs = [w.lower() for w in _TOKEN.findall(text) if len(w) >= 3 and "_" not in w]
        known = [w for w in runs if w in vocabulary]
        if len(runs) >= 2 or known:
            out.append(f"{where}:{node.lineno}: word list {text[:40]!r}")
    return out


@functools.cache
def english_vocabulary() -> frozenset[str]:
    """Every ASCII letter run of three or more in lang/en.py's string constants (docstrings left out)."""
    tree = ast.parse((PACKAGE / "lang" / "en.py").read_text(encoding="utf-8"))
    docs = _docstring_nodes(tree)
    return frozenset(w.lower() for node in ast.walk(tree) if isinstance(node, ast.Constant)
                     and isinstance(node.value, str) and id(node) not in docs
                     for w in _LETTERS.findall(_REGEX_SYNTAX.sub("", node.value)))


def test_the_english_module_knows_the_words_the_checker_looks_for():
    vocabulary = english_vocabulary()
    assert {"yesterday", "monday", "when", "the", "pounds", "week"} <= vocabulary and len(vocabulary) > 150


@pytest.mark.parametrize("path", ANSWER_PATH, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_of_the_answer_path_holds_a_word_of_any_language(path):
    assert findings(path.read_text(encoding="utf-8"), english_vocabulary(), str(path.relative_to(PACKAGE))) == []


BAD = {
    "an English regex": 'import re\nCUE = re.compile(r"\\b(?:moved|postponed|instead)\\b", re.I)\n',
    "a regex built from a constant": 'import re\n_M = "jan|feb|mar"\nDATE = re.compile(r"\\d+ (?:" + _M + ")")\n',
    "a Japanese regex": 'import re\nWHEN = re.compile("いつ|何日")\n',
    "a word list to split": 'STEMS = set("move moved moves moving".split())\n',
    "a word list passed on": 'from x import word_stems\nNOT = word_stems("when date day happen")\n',
    "a tuple of known words": 'DAYS = ("monday", "tuesday")\n',
    "one known word": 'def f(t):\n    return t == "yesterday"\n',
    "a Chinese word": 'WHEN = {"什么时候"}\n',
}
GOOD = {
    "a regex of symbols": 'import re\nCLOCK = re.compile(r"(?P<h>\\d{1,2}):(?P<m>\\d{2})\\b", re.I)\n',
    "a docstring": '"""When did the trip happen? yesterday, last week."""\n',
    "a user-facing f-string": 'def f(a):\n    return f"the reader said {a}; the latest message says"\n',
    "prose": 'RULES = "Answer from the messages below. When they disagree, the later one is right."\n',
    "an error": 'def f(s):\n    raise ValueError("unknown style when reading")\n',
    "identifiers": 'KINDS = {"email": 1, "clock": 2}\nSTYLE = "plain"\n',
}


@pytest.mark.parametrize("name", BAD)
def test_the_checker_finds_each_kind_of_word_list(name):
    assert findings(BAD[name], english_vocabulary()), name


@pytest.mark.parametrize("name", GOOD)
def test_the_checker_leaves_code_that_names_no_word_alone(name):
    assert findings(GOOD[name], english_vocabulary()) == [], name
