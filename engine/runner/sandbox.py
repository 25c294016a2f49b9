"""Running the component: a fresh wasmtime store and instance for every run, with fuel (a
deterministic budget of WebAssembly instructions) and a memory limit, nothing granted from the
host (no files, environment, network, processes or threads), and the traps that end a run
turned into clear errors that say which limit ended it and about where.

One engine and one compiled component per process; stores are cheap (about 2 ms each) and
never reused: an instance a trap ended is unusable, and nothing may pass between two learners.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import wasmtime
from wasmtime import component

from engine.errors import GradstepError
from engine.runner import build

# the native stack a guest may use: CPython's own depth checks (RecursionError, and the
# "trashcan" that frees a long chain of objects without recursing) must come before it, or a
# program that builds a chain of 100,000 values ends with a trap as it is freed. It must stay
# well inside a server thread's own stack (8 MB on Linux), and wasmtime keeps it under its async
# stack (2 MB).
WASM_STACK = 2 * 2**20 - 64 * 2**10


class Exhausted(GradstepError):
    """The run used all its fuel (``kind`` limit): a request's later runs would too."""


class Sandbox:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or build.default_cache()
        self._lock = threading.Lock()
        self._ready: tuple[wasmtime.Engine, component.Component, component.Linker] | None = None

    def load(self) -> None:
        """Build, compile or load the component now (else the first run does)."""
        self._loaded()

    def _loaded(self) -> tuple[wasmtime.Engine, component.Component, component.Linker]:
        ready = self._ready
        if ready is not None:
            return ready
        with self._lock:
            if self._ready is None:
                config = wasmtime.Config()
                config.consume_fuel = True
                config.max_wasm_stack = WASM_STACK
                engine = wasmtime.Engine(config)
                key = f"w{wasmtime.__version__ if hasattr(wasmtime, '__version__') else ''}f1"
                path = build.compiled(
                    self.folder,
                    key.replace(".", "_"),
                    lambda wasm: component.Component.from_file(engine, str(wasm)).serialize(),
                )
                comp = component.Component.deserialize_file(engine, str(path))
                linker = component.Linker(engine)
                linker.add_wasip2()
                with linker.root() as root:
                    root.add_func("progress", _progress)
                    root.add_func("prepared", _prepared)
                self._ready = (engine, comp, linker)
        assert self._ready is not None
        return self._ready

    def call(
        self, request: str, fuel: int, memory: int, told: list[str] | None = None
    ) -> tuple[str, int]:
        """The record of one run, and the fuel it used; ``told`` receives the program's
        prepared code, when the guest tells it (before the program runs)."""
        engine, comp, linker = self._loaded()
        store = wasmtime.Store(engine)
        store.set_wasi(wasmtime.WasiConfig())
        store.set_limits(memory_size=memory)
        store.set_fuel(fuel)
        _LINE.value = 0
        _LINE.told = told
        _LINE.store = store
        try:
            instance = linker.instantiate(store, comp)
            run = instance.get_func(store, "run")
            if run is None:  # pragma: no cover - the component is ours
                raise RuntimeError("the sandbox has no run function")
            out = run(store, request)
            run.post_return(store)
        except wasmtime.WasmtimeError as e:
            raise _trapped(str(e), fuel, memory) from None
        except wasmtime.Trap as e:
            raise _trapped(str(e), fuel, memory) from None
        finally:
            used = fuel - store.get_fuel()
            store.close() if hasattr(store, "close") else None
        if not isinstance(out, str):  # pragma: no cover
            raise RuntimeError("the sandbox answered no text")
        return out, used


_LINE = threading.local()  # the run in this thread: the line it has reached, as it said, its
# store (whose fuel it asks), and where its prepared code goes


def _progress(store: Any, line: int) -> int:
    _LINE.value = line
    return int(_LINE.store.get_fuel())  # the fuel left: the guest stops itself near the end


def _prepared(store: Any, code: str) -> None:
    told = getattr(_LINE, "told", None)
    if told is not None and not told:  # the first time only: later, the program could call it
        told.append(code)


def _where() -> str:
    line = getattr(_LINE, "value", 0)
    return f" (it was at line {line})" if line else ""


def _trapped(message: str, fuel: int, memory: int) -> GradstepError:
    text = message.lower()
    if "fuel" in text:
        return Exhausted(
            f"the program ran out of time: it did {fuel:,} units of work, gradstep's limit for "
            f"one run{_where()} (fewer steps, points or epochs would fit)",
            kind="limit",
        )
    if "stack" in text:
        return GradstepError(
            f"the program nests too deeply to run (calls within calls, or a very deep "
            f"structure){_where()}",
            kind="limit",
        )
    if "memory" in text or "grow" in text:
        return GradstepError(
            f"the program used more than {memory // 2**20:,} MB of memory, gradstep's limit"
            f"{_where()}",
            kind="limit",
        )
    return GradstepError(f"the program stopped the sandbox ({message[:200]}){_where()}",
                         kind="limit")  # fmt: skip
