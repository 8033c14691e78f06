"""The README stays a newcomer's page: short, with its picture, the test command CI runs,
and links that lead somewhere. Measurements live in docs/, which these checks keep whole.

docs/app.svg is redrawn by `make screenshot` (docs/screenshot.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ("docs/sources.md", "docs/benchmarks.md", "docs/answers.md", "docs/models.md", "docs/eval.md",
        "docs/cli.md", "docs/mcp.md", "docs/design.md", "CHANGELOG.md", "packaging/README.md", "bench/README.md")
# Prose that explains by pointing at a tracker number or a commit instead of giving the reason.
# (A number that points at another project, "llama.cpp pull request 26954", is a reference, not a reason.)
CITES_A_NUMBER = re.compile(r"\bissues? #?\d+|issues/\d+|\bcommit [0-9a-f]{7,40}\b", re.IGNORECASE)


def readme() -> str:
    return README.read_text(encoding="utf-8")


def test_readme_is_short():
    lines = readme().splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines; move detail to docs/"


def test_readme_keeps_the_ci_test_command():
    # .ci/run runs `make test`; the README must show the same command on a line of its own.
    assert "make test" in [line.strip() for line in readme().splitlines()]
    assert "make demo" in [line.strip() for line in readme().splitlines()]


def test_readme_shows_the_app():
    assert "docs/app.svg" in readme()
    svg = (ROOT / "docs" / "app.svg").read_text(encoding="utf-8")
    head = svg.lstrip()
    assert head.startswith(("<svg", "<?xml")) and "<svg" in head[:500], "docs/app.svg is not an SVG"
    assert svg.rstrip().endswith("</svg>")


@pytest.mark.parametrize("path", DOCS)
def test_linked_docs_exist(path):
    assert (ROOT / path).is_file(), f"{path} is missing"


def test_readme_links_lead_somewhere():
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme()):
        if "://" in target:
            continue
        assert (ROOT / target).exists(), f"README.md links to {target}, which does not exist"


def test_docs_links_lead_somewhere():
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            assert (doc.parent / target).resolve().exists(), f"{doc.name} links to {target}, which does not exist"


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_anchors_name_a_heading():
    pages = [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "README.md"]
    for page in pages:
        for target, anchor in re.findall(r"\]\(([^)#\s]*)#([^)\s]+)\)", page.read_text(encoding="utf-8")):
            linked = (page.parent / target).resolve() if target else page
            if linked.suffix != ".md":
                continue
            headings = re.findall(r"^#+ (.+)$", linked.read_text(encoding="utf-8"), re.MULTILINE)
            assert anchor in {_slug(h) for h in headings}, f"{page.name} links to {target}#{anchor}: no such heading"


def test_docs_give_reasons_not_numbers():
    pages = [README, ROOT / "CHANGELOG.md", ROOT / "bench" / "README.md", ROOT / "packaging" / "README.md",
             *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            found = CITES_A_NUMBER.search(line)
            assert found is None, f"{page.relative_to(ROOT)}:{n} cites {found.group(0)!r}; say the reason instead"
