"""The sandbox's component: CPython compiled to WebAssembly with the guest's harness inside
(``componentize-py``), then compiled for this machine by wasmtime. Both are made once and kept
in a cache folder, named by a digest of everything they are made from (the guest's files, the
tools' versions, the engine's configuration), so a changed harness is rebuilt and an unchanged
one is loaded in milliseconds. Several processes starting at once build it once: a lock file.

Building takes about 15 s and compiling about 12 s on a 2-core machine: the first start of a
fresh install pays it (``gradstep sandbox`` does it ahead).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent  # the engine package
WIT = Path(__file__).resolve().parent / "runner.wit"
# What the guest runs besides its own folder: the value engine, which imports nothing else, and
# the limits' constants.
SHARED = ("errors.py", "ops.py", "graph.py", "value.py", "limits.py")
APP = '''\
"""The component's entry (written by engine.runner.build)."""

import gc

import wit_world

from engine.guest import harness

# Every run starts from this moment's memory: run the harness a few times first, so that its
# code starts out warmed (CPython's specialised instructions, its caches) rather than cold in
# every fresh instance, and freeze what is here so that the collector never walks it again.
# (The host's functions are stubs until then.)
harness.warm_up()
gc.collect()
gc.freeze()
harness.progress = wit_world.progress
harness.prepared = wit_world.prepared


class WitWorld(wit_world.WitWorld):
    def run(self, request: str) -> str:
        return harness.run(request)
'''


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gradstep"


def guest_files() -> list[tuple[str, Path]]:
    """(path inside the component, file on disk) of every file the guest is made from."""
    files = [(f"engine/{name}", ENGINE / name) for name in SHARED]
    guest = ENGINE / "guest"
    for path in sorted(guest.rglob("*.py")):
        files.append((f"engine/guest/{path.relative_to(guest).as_posix()}", path))
    return files


def digest(extra: str = "") -> str:
    h = hashlib.blake2b(digest_size=10)
    for name, path in guest_files():
        h.update(name.encode())
        h.update(path.read_bytes())
    h.update(WIT.read_bytes())
    h.update(APP.encode())
    h.update(importlib.metadata.version("componentize-py").encode())
    h.update(extra.encode())
    return h.hexdigest()


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "sandbox.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def is_built(folder: Path) -> bool:
    """Whether ``folder`` holds this version's sandbox, built and compiled."""
    return any(folder.glob(f"runner-{digest()}-*.cwasm"))


def component(folder: Path) -> Path:
    """The component's .wasm file, built unless the cache has it."""
    path = folder / f"runner-{digest()}.wasm"
    if _used(path):
        return path
    with _locked(folder):
        if path.exists():
            return path
        with tempfile.TemporaryDirectory(prefix="gradstep-guest-") as tmp:
            _build(Path(tmp), path)
        _forget_others(folder, "runner-*.wasm", path)
    return path


def _tool() -> str:
    found = shutil.which("componentize-py", path=str(Path(sys.executable).parent))
    return found or shutil.which("componentize-py") or "componentize-py"


def _build(staging: Path, out: Path) -> None:
    for name, path in guest_files():
        target = staging / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    (staging / "engine" / "__init__.py").write_text(
        '"""gradstep\'s engine, as the sandbox has it."""\n'
    )
    (staging / "app.py").write_text(APP)
    tool = _tool()
    wit = str(WIT)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("VIRTUAL_ENV", None)  # componentize-py would bundle the server's site-packages
    subprocess.run([tool, "-d", wit, "-w", "runner", "bindings", str(staging)],
                   check=True, capture_output=True, env=env)  # fmt: skip
    partial = out.with_suffix(".partial")
    result = subprocess.run(
        [tool, "-d", wit, "-w", "runner", "componentize", "-p", str(staging), "app",
         "-o", str(partial)],
        capture_output=True, env=env, text=True, cwd=staging,
    )  # fmt: skip
    if result.returncode != 0:
        raise RuntimeError(f"building the sandbox failed:\n{result.stdout}\n{result.stderr}")
    partial.replace(out)


def compiled(folder: Path, engine_key: str, compile_: object) -> Path:
    """The component compiled for this machine and ``engine_key`` (wasmtime's version and the
    engine's configuration), made by ``compile_(wasm) -> bytes`` unless kept."""
    wasm = component(folder)
    path = wasm.with_name(f"{wasm.stem}-{engine_key}.cwasm")
    if _used(path):
        return path
    with _locked(folder):
        if not path.exists():
            data = compile_(wasm)  # type: ignore[operator]
            partial = path.with_suffix(".partial")
            partial.write_bytes(data)
            partial.replace(path)
        _forget_others(folder, "runner-*.cwasm", path)
    return path


STALE_SECONDS = 7 * 24 * 3600  # another version's files unused this long are deleted


def _used(path: Path) -> bool:
    """Whether ``path`` exists; if so, it is marked used now (its time of change), where the
    folder may be written (a Docker image's may not)."""
    if not path.exists():
        return False
    with contextlib.suppress(OSError):
        os.utime(path)
    return True


def _forget_others(folder: Path, pattern: str, keep: Path) -> None:
    """Delete other versions' files, but only stale ones: a server of another version (during
    a deploy, or another checkout's tests) may be about to read its own."""
    for old in folder.glob(pattern):
        try:
            if old != keep and time.time() - old.stat().st_mtime > STALE_SECONDS:
                old.unlink(missing_ok=True)
        except OSError:
            pass
