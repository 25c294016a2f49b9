"""What a short link stores and what it is called.

A link stores a view as the page's query parameters (``{"source": …, "step": "3"}``, strings as
the URL writes them), checked and normalised: defaults left out, a preset replaced by its
program, ``values`` written one way. A new page option is a new field of ``LinkRequest`` and
needs no migration. The id is the lowercase, unpadded base32 of the SHA-256 of the canonical
JSON of that mapping, cut to ``MIN_ID_CHARS`` characters and lengthened only on a collision, so
the same view always gets the same id.

A row holds the mapping packed: JSON in UTF-8, compressed with zlib. Rows stored before holding
the canonical JSON itself (ASCII, a ``\\ud83d\\ude00`` for each emoji: 12 bytes) are still read,
told apart by their first byte (``{``; a zlib stream starts with ``x``). Packed, a preset takes
110 to 770 bytes and a real program of the 20,000 characters a source may have about 7 KB; a
view packed to more than ``MAX_LINK_BYTES`` is refused (413).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import zlib
from collections.abc import Mapping
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from app.draw.fold import parse_fold
from app.numbers import DEFAULT_DECIMALS
from app.presets import preset_source
from app.query import parse_values
from app.schemas import LinkRequest

if TYPE_CHECKING:  # the pipeline's module reads the settings, which read this room's store
    from app.pipeline import Pipeline

State = dict[str, str]

MIN_ID_CHARS = 8  # 40 bits: a collision is likely only past about a million links
MAX_ID_CHARS = 52  # all 256 bits of the hash
# a view's packed bytes: the largest real programs take 7 KB, micrograd's demo 771 bytes; random
# text in a comment packs badly (20,000 random CJK characters: 44 KB) and is refused
MAX_LINK_BYTES = 16 * 1024
PACK_LEVEL = 9  # a link is packed once and read many times
OLD_FORMAT = b"{"  # the first byte of a row stored as canonical JSON, before rows were packed
ID_PATTERN = re.compile(f"[a-z2-7]{{{MIN_ID_CHARS},{MAX_ID_CHARS}}}")

# the page's parameters in the order static/url.js writes them; images take fewer
PAGE_KEYS = (
    "source", "values", "iteration", "phase", "step", "decimals", "theme", "rankdir", "fold",
    "engine", "over", "predict", "numeric", "topo", "node",
)  # fmt: skip
IMAGE_KEYS = (
    "source", "values", "iteration", "phase", "step", "theme", "rankdir", "fold", "engine",
)  # fmt: skip


def _checked_fold(fold: str) -> str:
    parse_fold(fold)  # refuses what is not a fold request
    return fold


def link_state(body: LinkRequest, pipeline: Pipeline) -> State:
    """The stored mapping of a view; a program that does not run, within the server's gate and
    limits of runs (``pipeline``), is refused (422)."""
    source = preset_source(body.source, body.preset)
    raw = body.values
    values = parse_values(raw if raw is None or isinstance(raw, str) else json.dumps(raw))
    pipeline.run(source, values, body.engine, body.iteration)
    phase = body.phase or ("backward" if body.step is not None else None)
    fields: dict[str, object] = {
        "source": source,
        "values": json.dumps(values, sort_keys=True, separators=(",", ":")) if values else None,
        "iteration": body.iteration,
        "phase": phase,
        "step": body.step,
        "decimals": None if body.decimals == DEFAULT_DECIMALS else body.decimals,
        "theme": None if body.theme == "auto" else body.theme,
        "rankdir": None if body.rankdir == "auto" else body.rankdir,
        "fold": None if body.fold in (None, "auto") else _checked_fold(body.fold),
        "engine": None if body.engine == "auto" else body.engine,
        "over": None if body.over else "0",
        "predict": "1" if body.predict else None,
        "numeric": "1" if body.numeric else None,
        "topo": "1" if body.topo else None,
        "node": body.node,
    }
    return {key: str(value) for key, value in fields.items() if value is not None}


def canonical(state: Mapping[str, str]) -> str:
    """The one text of a state: sorted keys, no spaces, ASCII only (what is hashed and stored)."""
    return json.dumps(dict(state), sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def from_canonical(text: str) -> State:
    return dict(json.loads(text))


def pack(state: Mapping[str, str]) -> bytes:
    """What a row stores: the state as compact UTF-8 JSON, compressed."""
    text = json.dumps(dict(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return zlib.compress(text.encode("utf-8"), PACK_LEVEL)


def unpack(data: bytes) -> State:
    """The state of a row, packed or stored before rows were (canonical JSON)."""
    if data[:1] == OLD_FORMAT:
        return from_canonical(data.decode("utf-8"))
    return from_canonical(zlib.decompress(data).decode("utf-8"))


def full_id(state: Mapping[str, str]) -> str:
    """All 52 base32 characters of the state's SHA-256; an id is one of its prefixes."""
    digest = hashlib.sha256(canonical(state).encode("ascii")).digest()
    return base64.b32encode(digest).decode("ascii").rstrip("=").lower()


def is_link_id(text: str) -> bool:
    return ID_PATTERN.fullmatch(text) is not None


def target(state: Mapping[str, str], path: str, keys: tuple[str, ...] = PAGE_KEYS) -> str:
    """The long URL a short link stands for: ``path`` with the state's parameters among
    ``keys``, in the page's order."""
    query = urlencode([(key, state[key]) for key in keys if key in state])
    return f"{path}?{query}" if query else path
