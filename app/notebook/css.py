"""The page's stylesheets, scoped to the widget: a notebook is someone else's page.

app.css styles ``:root``, ``body``, ``button``, ``*``...; pasted into JupyterLab as they are,
they would restyle the whole notebook. Every selector here is put under the widget's root
class, and ``:root``, ``html`` and ``body`` *become* that root, so the same rules (variables,
light and dark, the player's layout) apply inside the widget and nowhere else.
"""

from __future__ import annotations

import re

SCOPE = ".gradstep-nb"

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_ROOTS = re.compile(r"^(?::root|html|body)(?![\w-])")


def _split_selectors(text: str) -> list[str]:
    """``a, b:is(c, d)`` → ``["a", "b:is(c, d)"]``: commas inside brackets do not split."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def scope_selector(selector: str, scope: str = SCOPE) -> str:
    """One selector under ``scope``: ``:root[x]`` → ``scope[x]``, ``body.embed`` →
    ``scope.embed``, ``button`` → ``scope button``."""
    if _ROOTS.match(selector):
        return _ROOTS.sub(lambda _: scope, selector, count=1)
    return f"{scope} {selector}"


def _block_end(css: str, open_at: int) -> int:
    """The index just past the ``}`` that closes the ``{`` at ``open_at``."""
    depth = 0
    for i in range(open_at, len(css)):
        if css[i] == "{":
            depth += 1
        elif css[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("a stylesheet has an unclosed block")


def scope_css(css: str, scope: str = SCOPE) -> str:
    """Every rule of ``css`` applied only inside ``scope`` (inside @media and @supports too;
    @keyframes and other at-rules are kept as they are)."""
    css = _COMMENT.sub("", css)
    out: list[str] = []
    i = 0
    while True:
        open_at = css.find("{", i)
        if open_at < 0:
            out.append(css[i:])
            break
        head = css[i:open_at].strip()
        end = _block_end(css, open_at)
        body = css[open_at + 1 : end - 1]
        if head.startswith(("@media", "@supports", "@container", "@layer")):
            out.append(f"{head} {{\n{scope_css(body, scope)}\n}}\n")
        elif head.startswith("@"):
            out.append(f"{head} {{{body}}}\n")
        else:
            selectors = ", ".join(scope_selector(s, scope) for s in _split_selectors(head))
            out.append(f"{selectors} {{{body}}}\n")
        i = end
    return "".join(out)
