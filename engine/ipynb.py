"""A Jupyter notebook (.ipynb) as one program: its code cells in order, each begun by a
``# %%`` line (the cell marker of VS Code and Jupytext), so that the text reads as the
notebook did and the sandbox knows where each cell begins (a cell that needs torch is skipped,
the next runs). Markdown and raw cells are left out; notebook commands (``!pip``, ``%matplotlib``)
stay in the text, and the sandbox skips them, as Jupyter would not run them as Python."""

from __future__ import annotations

import json

from engine.errors import GradstepError

MAX_NOTEBOOK_BYTES = 20 * 2**20  # a notebook's file, outputs and images included


def program_of(notebook: str | bytes) -> str:
    """The program text of ``notebook`` (the .ipynb file's JSON)."""
    if len(notebook) > MAX_NOTEBOOK_BYTES:
        raise GradstepError(
            f"the notebook is {len(notebook) / 2**20:.1f} MB; gradstep opens notebooks of at "
            f"most {MAX_NOTEBOOK_BYTES // 2**20} MB (clear its outputs to make it smaller)",
            kind="limit",
        )
    try:
        data = json.loads(notebook)
    except (ValueError, RecursionError):
        raise GradstepError("this file is not a Jupyter notebook (its JSON cannot be read)",
                            kind="syntax") from None  # fmt: skip
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        raise GradstepError("this file is not a Jupyter notebook (it has no cells)", kind="syntax")
    language = _language(data)
    if language.lower() not in ("", "python"):
        raise GradstepError(f"this notebook's code is {language}, not Python", kind="unsupported")
    parts = []
    for number, cell in enumerate(cells, start=1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        pieces = source if isinstance(source, list) else [source]
        if not all(isinstance(piece, str) for piece in pieces):
            raise GradstepError(f"this file is not a Jupyter notebook (cell {number}'s source is "
                                "not text)", kind="syntax")  # fmt: skip
        text = "".join(pieces)
        bad = next((ch for ch in text if "\ud800" <= ch <= "\udfff"), None)
        if bad is not None:  # half of a character: no text can hold it
            raise GradstepError(f"cell {number} holds U+{ord(bad):04X}, half of a character: "
                                "this notebook's text is damaged", kind="syntax")  # fmt: skip
        parts.append("# %%\n" + text.rstrip("\n"))
    if not parts:
        raise GradstepError("this notebook has no code cells", kind="syntax")
    return "\n\n".join(parts) + "\n"


def _language(data: dict[str, object]) -> str:
    metadata = data.get("metadata")
    if not isinstance(metadata, dict):
        return ""
    for key in ("language_info", "kernelspec"):
        info = metadata.get(key)
        if isinstance(info, dict) and isinstance(info.get("language") or info.get("name"), str):
            name = str(info.get("language") or info.get("name"))  # as written: "R", "Julia"
            return "python" if name.lower().startswith("python") else name
    return ""
