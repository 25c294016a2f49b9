"""The bytes of a graph's answer (POST /api/graph), part by part: decoded, and compressed each way
a browser may accept, for the lecture's MLP, its neuron and the README program; the first answer
and a value-only one (a slider moved: the page names the layout it shows and the structure it
holds, docs/api.md); what the server sends on the wire to each kind of client; and, for the
whole answer, brotli's size and time at the qualities around the server's.

    python bench/answer_size.py [--repeat N]

The server sends brotli at app/capacity.py's BROTLI_QUALITY to a client that takes it (Chromium
over HTTPS: ``gzip, deflate, br, zstd``), gzip at GZIP_LEVEL to one that takes gzip alone
(Chromium over plain http: ``gzip, deflate``), and the JSON itself to one that takes neither;
zstd 3 (about gzip 1's time) is shown for comparison when installed. Sizes in KB (1,000 bytes);
times on this machine, the median of N (bench/timing.py).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Callable
from pathlib import Path

import brotli
from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "api"), str(ROOT / "bench")]

from programs import mlp_source  # noqa: E402
from timing import measure  # noqa: E402
from variants import first_input  # noqa: E402

from app.capacity import BROTLI_QUALITY, GZIP_LEVEL  # noqa: E402
from app.main import create_app  # noqa: E402
from app.presets import MICROGRAD_README, preset_source  # noqa: E402

CLIENTS = {  # what each sends as Accept-Encoding
    "Chromium over HTTPS": "gzip, deflate, br, zstd",
    "Chromium over http": "gzip, deflate",
    "a client that takes neither": "identity",
}
QUALITIES = range(BROTLI_QUALITY - 1, BROTLI_QUALITY + 3)


def codecs() -> dict[str, Callable[[bytes], bytes]]:
    """Each way of compressing measured: the server's two, and zstd if its module is installed."""
    out: dict[str, Callable[[bytes], bytes]] = {
        f"gzip {GZIP_LEVEL}": lambda b: gzip.compress(b, GZIP_LEVEL),
        f"brotli {BROTLI_QUALITY}": lambda b: brotli.compress(b, quality=BROTLI_QUALITY),
    }
    try:
        from backports import zstd

        out["zstd 3"] = lambda b: zstd.compress(b, 3)
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


def qualities(answer: bytes, repeat: int) -> None:
    """The whole answer in brotli at the qualities around the server's, and gzip's, each with
    the time it takes (paid once per answer: the server keeps it)."""
    ways = {f"gzip {GZIP_LEVEL}": lambda: gzip.compress(answer, GZIP_LEVEL)}
    ways |= {f"brotli {q}": lambda q=q: brotli.compress(answer, quality=q) for q in QUALITIES}
    print("| the whole answer | KB | time |")
    print("| --- | ---: | --- |")
    for name, way in ways.items():
        print(f"| {name} | {len(way()) / 1e3:,.1f} | {measure(way, repeat)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
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
                sent = {who: wire(client, body, accept) for who, accept in CLIENTS.items()}
                said = "; ".join(
                    f"{n / 1e3:,.1f} KB {encoding} to {who} (`{CLIENTS[who]}`)"
                    for who, (n, encoding) in sent.items()
                )
                print(f"{label}: on the wire {said}\n")
                table(decoded, ways)
                print()
                qualities(decoded, args.repeat)
                print()


if __name__ == "__main__":
    main()
