"""Every link in docs/ and the README leads somewhere, and every file the docs name exists.

A relative link (``[text](path)``, ``[text](path#anchor)``, ``[text](#anchor)``) must name a
file or folder of the repository, and its anchor a heading of that file, slugged as GitHub slugs
it. A path written in backticks must name a file or folder too: a token of path characters with a
``/`` in it, not starting with one (``/api/graph`` is a URL's path, not a file), ending in
``.py``, ``.js``, ``.css``, ``.html``, ``.md`` or ``/``, read from the repository's root
(``engine/ops.py``, ``app/classroom/``). Fenced code blocks are examples, not references, and are
left alone; so are links to other sites. No skip list: every doc follows the rule."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]

HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
PATH = re.compile(r"[\w.-]+(?:/[\w.-]+)*/(?:[\w.-]+\.(?:py|js|css|html|md))?")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # https:, mailto:, data:


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1."""
    lines, fence = [], ""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = ""
        elif stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
        else:
            lines.append((number, line))
    return lines


def github_slug(heading: str) -> str:
    """GitHub's anchor for a heading's text (github-slugger): the rendered text lowercased, every
    character but letters, marks, digits, ``_``, ``-`` and spaces dropped, each space a ``-``."""
    text = LINK.sub(r"\1", heading)
    text = CODE_SPAN.sub(lambda m: m.group(2).strip(), text).replace("*", "").lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LMN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every heading's anchor in a Markdown file; a repeated slug gets -1, -2, ... as on GitHub."""
    seen: dict[str, int] = {}
    found = set()
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        slug = github_slug(match.group(1))
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def broken_links(doc: Path) -> list[str]:
    """What is wrong with each relative link of ``doc``, as ``line: link: why``."""
    problems = []
    for number, line in prose_lines(doc.read_text(encoding="utf-8")):
        # a link written inside a code span is an example (`![…](…/api/graph.png?…)`)
        for match in LINK.finditer(CODE_SPAN.sub("``", line)):
            target = match.group(2)
            if not target or EXTERNAL.match(target):
                continue
            path_part, _, anchor = target.partition("#")
            path = (doc.parent / path_part).resolve() if path_part else doc
            if not path.exists():
                problems.append(f"{number}: {target}: no such file or folder")
            elif path_part.endswith("/") and not path.is_dir():
                problems.append(f"{number}: {target}: not a folder")
            elif anchor and (path.suffix != ".md" or anchor not in anchors(path)):
                problems.append(f"{number}: {target}: no heading #{anchor} in {path.name}")
    return problems


def missing_paths(doc: Path) -> list[str]:
    """Each backticked path of ``doc`` that names nothing in the repository."""
    problems = []
    for number, line in prose_lines(doc.read_text(encoding="utf-8")):
        for match in CODE_SPAN.finditer(line):
            token = match.group(2).strip()
            if PATH.fullmatch(token) and not (ROOT / token).exists():
                problems.append(f"{number}: `{token}`")
            elif PATH.fullmatch(token) and token.endswith("/") and not (ROOT / token).is_dir():
                problems.append(f"{number}: `{token}` is not a folder")
    return problems


def doc_id(doc: Path) -> str:
    return doc.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("doc", DOCS, ids=doc_id)
def test_every_relative_link_leads_to_a_file_and_a_heading(doc: Path) -> None:
    assert broken_links(doc) == []


@pytest.mark.parametrize("doc", DOCS, ids=doc_id)
def test_every_backticked_path_names_a_file_or_folder(doc: Path) -> None:
    assert missing_paths(doc) == []


@pytest.mark.parametrize(
    ("heading", "slug"),
    [
        ("`POST /api/graph`", "post-apigraph"),
        ("`GET /api/graph.svg` and the graph query", "get-apigraphsvg-and-the-graph-query"),
        ("bench/sandbox_memory.py", "benchsandbox_memorypy"),
        ("The trace is the contract", "the-trace-is-the-contract"),
        ("A class's events", "a-classs-events"),
        ("`draw_dot`", "draw_dot"),
        ("Backward: ∂L/∂x = 2·x", "backward-lx--2x"),
    ],
)
def test_a_heading_is_slugged_as_github_slugs_it(heading: str, slug: str) -> None:
    assert github_slug(heading) == slug


def test_a_broken_link_and_a_stale_path_are_found(tmp_path: Path) -> None:
    """The checks see what they are for: a missing file, a missing heading, a stale path."""
    doc = tmp_path / "doc.md"
    doc.write_text(
        "# Top\n\n## Top\n\n[a](#top-1) [b](#nowhere) [c](missing.md) [d](doc.md#top)\n"
        "`engine/notation.py` `engine/ops.py` `engine/ops.py/` `/api/graph.svg`\n"
        "```\n[e](fenced.md) `fenced/x.py`\n```\n",
        encoding="utf-8",
    )
    assert broken_links(doc) == [
        "5: #nowhere: no heading #nowhere in doc.md",
        "5: missing.md: no such file or folder",
    ]
    assert missing_paths(doc) == ["6: `engine/notation.py`", "6: `engine/ops.py/` is not a folder"]
