"""The bytes of a graph's answer (POST /api/graph), part by part: decoded, and compressed each way
a browser may accept, for the lecture's MLP, its neuron and the README program; the first answer
and a value-only one (a slider moved: the page names the layout it shows and the structure it
holds, docs/api.md), and what the server sends on the wire to Chromium (``gzip, deflate, br,
zstd``) and to a client that takes gzip alone.

    python bench/answer_size.py

gzip at level 1 is what the server does when it gzips (app/capacity.py GZIP_LEVEL); zstd and
brotli at the levels that cost about as much time (zstd 3) or several times as much (brotli 5),
for comparison. Sizes in KB (1,000 bytes).
"""

from __future__ import annotations

import gzip
import json
import sys
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "api"), str(ROOT / "bench")]

from programs import mlp_source  # noqa: E402
from variants import first_input  # noqa: E402

from app.main import create_app  # noqa: E402
from app.presets import MICROGRAD_README, preset_source  # noqa: E402

CHROMIUM = "gzip, deflate, br, zstd"


def codecs() -> dict[str, Callable[[bytes], bytes]]:
    """Each way of compressing measured: those whose module is installed."""
    out: dict[str, Callable[[bytes], bytes]] = {"gzip 1": lambda b: gzip.compress(b, 1)}
    try:
        from backports import zstd

        out["zstd 3"] = lambda b: zstd.compress(b, 3)
    except ImportError:
        pass
    try:
        import brotli

        out["brotli 5"] = lambda b: brotli.compress(b, quality=5)
    except ImportError:
        pass
    return out


def wire(client: TestClient, body: dict[str, object], accept: str) -> tuple[int, str]:
    """The bytes sent for ``body`` to a client that sends ``accept``, and their encoding."""
    with client.stream("POST", "/api/graph", json=body, headers={"accept-encoding": accept}) as r:
        assert r.status_code == 200, r.read()
        return len(b"".join(r.iter_raw())), r.headers.get("content-encoding", "identity")


def compact(value: object) -> bytes:
    """``value`` as the server writes JSON: UTF-8, no spaces."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def table(answer: bytes, ways: dict[str, Callable[[bytes], bytes]]) -> None:
    """Each part of ``answer`` (and of its structure), decoded and compressed."""
    parsed = json.loads(answer)
    parts: dict[str, object] = {"the whole answer": parsed}
    parts |= {k: v for k, v in parsed.items() if v not in (None, "", [], {})}
    structure = parsed.get("structure") or {}
    parts |= {f"structure.{k}": v for k, v in structure.items() if v not in ("", [], {})}
    print("| part | decoded | " + " | ".join(ways) + " |")
    print("| --- | ---: |" + " ---: |" * len(ways))
    for name, value in parts.items():
        data = answer if name == "the whole answer" else compact(value)
        if len(data) < 1000 and name != "the whole answer":
            continue
        sizes = " | ".join(f"{len(way(data)) / 1e3:,.1f}" for way in ways.values())
        print(f"| {name} | {len(data) / 1e3:,.1f} | {sizes} |")


def main() -> None:
    programs = {
        "the lecture's MLP (tests/api/programs.py mlp_source, 979 values)": mlp_source(),
        "the lecture's neuron (preset lecture-neuron)": preset_source(None, "lecture-neuron"),
        "the README program (preset micrograd-readme)": MICROGRAD_README,
    }
    ways = codecs()
    with TestClient(create_app()) as client:
        for title, source in programs.items():
            first = {"source": source}
            plain = client.post("/api/graph", json=first, headers={"accept-encoding": "identity"})
            answer = plain.json()
            knob = first_input(source)
            moved = {
                "source": source,
                "values": {knob: 0.25},
                "layout": answer["layout"],
                "structure": answer["digest"],
            }
            value_only = client.post("/api/graph", json=moved, headers={"accept-encoding": ""})
            print(f"## {title}\n")
            for label, body, decoded in (
                ("first answer", first, plain.content),
                ("value-only", moved, value_only.content),
            ):
                sent = {accept: wire(client, body, accept) for accept in (CHROMIUM, "gzip")}
                said = "; ".join(
                    f"{n / 1e3:,.1f} KB {encoding} to `{accept}`"
                    for accept, (n, encoding) in sent.items()
                )
                print(f"{label}: on the wire {said}\n")
                table(decoded, ways)
                print()


if __name__ == "__main__":
    main()
