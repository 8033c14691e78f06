"""Small text helpers shared by screens: dates, snippets with highlights."""

from __future__ import annotations

import re
from pathlib import Path

from rich.style import Style
from rich.text import Text

from ..display import format_timestamp, match_spans


def short_date(ts: str | None) -> str:
    return ts[:10] if ts else "—"


def when(ts: str | None) -> str:
    return format_timestamp(ts)


def source_label(source: dict) -> str:
    name = Path(source.get("path") or "?").name
    count = source.get("messages", 0)
    return f"{name} · {source.get('format')} · {count:,} msg{'s' if count != 1 else ''}"


def snippet(text: str, query: str, width: int, match_style: Style | str) -> Text:
    """``text`` on one line, cut to ``width`` around its first match, matches styled."""
    flat = " ".join(text.split())
    spans = match_spans(query, flat) if query else []
    start = 0
    if len(flat) > width and spans and spans[0][0] > width // 3:
        start = spans[0][0] - width // 3
    piece = flat[start:start + width]
    out = Text(("…" if start else "") + piece + ("…" if start + width < len(flat) else ""))
    shift = 1 if start else 0
    for a, b in spans:
        a, b = a - start, b - start
        if b <= 0 or a >= len(piece):
            continue
        out.stylize(match_style, max(a, 0) + shift, min(b, len(piece)) + shift)
    return out


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 source``, ``2 sources``, ``1,034 messages``."""
    return f"{n:,} {word if n == 1 else many or word + 's'}"


# -- LaTeX in an answer, as text a person reads ----------------------------------------

#: Commands a reader writes in math, and what they read as.
LATEX_SYMBOLS = {
    "times": "×", "cdot": "·", "div": "÷", "pm": "±", "mp": "∓", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
    "neq": "≠", "ne": "≠", "approx": "≈", "sim": "~", "equiv": "≡", "infty": "∞", "to": "→", "rightarrow": "→",
    "leftarrow": "←", "Rightarrow": "⇒", "cdots": "⋯", "ldots": "…", "dots": "…", "degree": "°", "circ": "°",
    "percent": "%", "%": "%", "$": "$", "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ",
    "epsilon": "ε", "theta": "θ", "lambda": "λ", "mu": "μ", "pi": "π", "sigma": "σ", "Sigma": "Σ", "phi": "φ",
    "omega": "ω", "sum": "Σ", "prod": "∏", "int": "∫", "partial": "∂", "in": "∈", "quad": " ", "qquad": "  ",
    ",": " ", ";": " ", "!": "", " ": " ",
}
SUPERSCRIPT = str.maketrans("0123456789+-=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ")
SUBSCRIPT = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")

_MATH = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]|\$\$(.+?)\$\$", re.S)
_GROUP = r"\{((?:[^{}]|\{[^{}]*\})*)\}"
_FRAC = re.compile(r"\\[dt]?frac\s*" + _GROUP + r"\s*" + _GROUP)
_SQRT = re.compile(r"\\sqrt\s*" + _GROUP)
_TEXT = re.compile(r"\\(?:text|mathrm|mathbf|mathit|operatorname|textbf|textit)\s*" + _GROUP)
_SCRIPT = re.compile(r"([\^_])(?:" + _GROUP + r"|(\\[A-Za-z]+|[^\s{}\\]))")
_COMMAND = re.compile(r"\\([A-Za-z]+|[,;! %$])")


def _operand(text: str) -> str:
    """``a+b`` as ``(a+b)`` where a fraction's part needs it; ``3`` or ``x`` as they are."""
    return text if re.fullmatch(r"[\w.·×]+", text) else f"({text})"


def _script(match: re.Match) -> str:
    mark, body = match.group(1), match.group(2) if match.group(2) is not None else match.group(3)
    table = SUPERSCRIPT if mark == "^" else SUBSCRIPT
    mapped = body.translate(table)
    if all(c in "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿ₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎" for c in mapped):
        return mapped
    return f"{mark}({body})" if len(body) > 1 else f"{mark}{body}"


def _math(body: str) -> str:
    text = body
    for _ in range(3):  # nested fractions and roots, inside out
        text = _TEXT.sub(lambda m: m.group(1), text)
        text = _FRAC.sub(lambda m: f"{_operand(_math(m.group(1)))}/{_operand(_math(m.group(2)))}", text)
        text = _SQRT.sub(lambda m: f"√{_operand(_math(m.group(1)))}", text)
    text = _COMMAND.sub(lambda m: LATEX_SYMBOLS.get(m.group(1), m.group(1)), text)
    text = _SCRIPT.sub(_script, text)
    text = text.replace("{", "").replace("}", "")
    return " ".join(text.split())


def readable_math(text: str) -> str:
    """LaTeX math in an answer (``\\( \\frac{1}{3} \\)``, ``\\[ 2 \\times 3 \\]``, ``$$x^2$$``) as
    plain text a person reads (``1/3``, a times sign, ``x²``). Only what sits between math
    delimiters changes: a lone ``$5`` or a backslash in a path stays as written."""
    return _MATH.sub(lambda m: _math(next(g for g in m.groups() if g is not None)), text)
