"""``gradstep serve``, ``gradstep render`` and ``gradstep links export|import``.

Each reads the settings (app/settings.py) once, when it starts: ``serve``'s flags are settings
(``--port`` is GRADSTEP_PORT's), given on the command line instead; ``render`` lays out with the
layout settings and ``links`` opens the settings' store unless ``--database`` names another. A
bad setting is one line on stderr and exit status 2. The server's processes (uvicorn's
``--workers``) each make their app with ``create_app()``, which reads the same environment."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, TextIO, get_args

from pydantic import ValidationError

from app import __version__
from app.capacity import Unavailable
from app.draw import graphviz_wasm_worker
from app.draw.layout import Layout
from app.draw.layout.wasm_backend import wasm_available
from app.draw.svg import standalone_svg
from app.links.store import StoreError, dump, load, open_store
from app.middleware import MAX_REQUEST_HEAD_BYTES
from app.numbers import ascii_digits
from app.pipeline import Pipeline, draw
from app.query import StepQuery, parse_values
from app.settings import MAX_PORT, Settings, env_name, problems
from engine import runner
from engine.errors import GradstepError
from engine.ipynb import program_of
from engine.runner import build
from engine.steps import Phase

GRACEFUL_SHUTDOWN_S = 8  # SIGTERM: in-flight requests (layout is capped at seconds) finish;
# an export still streaming then is cut, so that the server and its children end within 10 s
SERVE_FLAGS = ("host", "port", "workers", "limit_concurrency")  # Settings fields, as --flags


def _setting(name: str) -> str:
    """A flag's help: its setting's description, variable and default."""
    field = Settings.model_fields[name]
    return f"{field.description} (default: {env_name(name)}, else {field.default})"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gradstep", description="See backpropagation move, node by node."
    )
    parser.add_argument("--version", action="version", version=f"gradstep {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the web app")
    serve.add_argument("--host", help=_setting("host"))
    serve.add_argument("--port", type=_port, help=_setting("port"))
    serve.add_argument("--workers", type=_positive, help=_setting("workers"))
    serve.add_argument("--limit-concurrency", type=_positive, help=_setting("limit_concurrency"))
    render = commands.add_parser("render", help="draw a program's graph as a standalone SVG")
    render.add_argument(
        "source", help="the program; @FILE reads a file (a .ipynb: its code cells), - reads stdin"
    )
    render.add_argument("-o", "--output", required=True, help="the SVG file to write")
    render.add_argument("--values", help='input values: a=1,b=2 or {"a": 1}')
    render.add_argument("--step", type=int, help="a step index (omit: the finished graph)")
    render.add_argument("--phase", choices=get_args(Phase), default="backward")
    render.add_argument("--theme", choices=("light", "dark"), default="light")
    render.add_argument("--rankdir", choices=("LR", "TB"), default="LR")
    commands.add_parser(
        "sandbox",
        help="build and compile the sandbox programs run in (serve does it on first start)",
    )
    links = commands.add_parser("links", help="move short links between stores (JSON lines)")
    moves = links.add_subparsers(dest="move", required=True)
    export = moves.add_parser("export", help="write every short link as JSON lines")
    export.add_argument("-o", "--output", default="-", help="the file to write (- : stdout)")
    load = moves.add_parser("import", help="add short links from JSON lines; ids are kept")
    load.add_argument("input", nargs="?", default="-", help="the file to read (- : stdin)")
    for move in (export, load):
        move.add_argument(
            "--database",
            help="postgresql://… or sqlite:///path (default: GRADSTEP_DATABASE_URL, else the "
            "SQLite file in GRADSTEP_DATA)",
        )
    return parser


def _positive(text: str) -> int:
    if not ascii_digits(text) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, not {text!r}")
    return int(text)


def _port(text: str) -> int:
    if not ascii_digits(text) or int(text) > MAX_PORT:
        raise argparse.ArgumentTypeError(f"must be a port number, 0 to {MAX_PORT}, not {text!r}")
    return int(text)


def _read_source(arg: str) -> str:
    if arg == "-":
        return sys.stdin.read()
    if arg.startswith("@"):
        text = Path(arg[1:]).read_text(encoding="utf-8")
        return program_of(text) if arg.lower().endswith(".ipynb") else text
    return arg


def _located(error: GradstepError) -> str:
    """``line 2, column 5: message``: the place once, before the message (which may say the
    line too: "invalid syntax (line 2)")."""
    span = error.span
    if span is None:
        return error.message
    message = error.message.replace(f" (line {span.line})", "", 1)
    return f"line {span.line}, column {span.column}: {message}"


def _render(args: argparse.Namespace, settings: Settings) -> int:
    try:
        source = _read_source(args.source)
    except (OSError, UnicodeDecodeError) as error:
        why = "it is not UTF-8 text" if isinstance(error, UnicodeDecodeError) else error.strerror
        print(f"gradstep: cannot read the program {args.source[1:]}: {why}", file=sys.stderr)
        return 2
    except GradstepError as error:  # a notebook that cannot be read
        print(f"gradstep: {error.message}", file=sys.stderr)
        return 2
    runner.sandbox(settings.sandbox)  # where the compiled sandbox is kept
    layout = Layout(settings.layout_settings())
    try:
        drawn = draw(Pipeline.of(settings), layout, source, parse_values(args.values), args.rankdir)
        at = StepQuery(args.phase, args.step)
        at.check(drawn.structure)
        svg = drawn.svg(at.phase, at.step)
    except GradstepError as error:
        print(f"gradstep: {_located(error)}", file=sys.stderr)
        return 2
    except Unavailable as error:  # the layout backend failed: not the program's fault
        print(f"gradstep: {error.message}", file=sys.stderr)
        return 3
    finally:
        layout.close()
    try:
        Path(args.output).write_text(standalone_svg(svg, args.theme), encoding="utf-8")
    except OSError as error:
        print(f"gradstep: cannot write {args.output}: {error.strerror}", file=sys.stderr)
        return 2
    return 0


def _links(args: argparse.Namespace, settings: Settings) -> int:
    try:
        with open_store(args.database or settings.links_url()) as store:
            if args.move == "export":
                with _open(args.output, "w") as out:
                    count = dump(store.export(), out)
                print(f"gradstep: exported {count} links from {store.kind}", file=sys.stderr)
                return 0
            with _open(args.input, "r") as lines:
                done = store.import_(load(lines))
    except (StoreError, ValueError, OSError) as error:
        print(f"gradstep: {error}", file=sys.stderr)
        return 2
    print(
        f"gradstep: imported {done.added} new links into {store.kind}; {done.present} were "
        f"there already",
        file=sys.stderr,
    )
    for link_id in done.conflicts:
        print(f"gradstep: {link_id} holds another view here: not imported", file=sys.stderr)
    return 1 if done.conflicts else 0


def _open(path: str, mode: Literal["r", "w"]) -> TextIO:
    """A file, or stdin / stdout for ``-`` (left open when done), as UTF-8 text."""
    target = (sys.stdout if mode == "w" else sys.stdin).fileno() if path == "-" else path
    return open(target, mode, encoding="utf-8", closefd=path != "-")


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    flags = {name: getattr(args, name, None) for name in SERVE_FLAGS}
    try:
        settings = Settings(**{name: value for name, value in flags.items() if value is not None})
    except ValidationError as error:
        for problem in problems(error):
            print(f"gradstep: {problem}", file=sys.stderr)
        return 2
    if args.command == "render":
        return _render(args, settings)
    if args.command == "sandbox":
        return _sandbox(settings)
    if args.command == "links":
        return _links(args, settings)
    _serve(settings)
    return 0


def _sandbox(settings: Settings) -> int:
    """Build (about 15 s), compile (about 15 s) and load the sandbox, unless it is kept; and
    compile the WebAssembly Graphviz (about 3 s), unless it is kept."""
    started = time.monotonic()
    kept = build.is_built(settings.sandbox)
    if not kept:
        print(f"gradstep: building the sandbox in {settings.sandbox} (once: about a minute)",
              file=sys.stderr)  # fmt: skip
    try:
        runner.sandbox(settings.sandbox).load()
    except (OSError, RuntimeError) as error:
        print(f"gradstep: the sandbox could not be built: {error}", file=sys.stderr)
        return 1
    if wasm_available():  # the WebAssembly Graphviz compiled beside it, for its layout workers
        graphviz_wasm_worker.compiled(settings.sandbox)
    what = "loaded" if kept else "built"
    print(f"gradstep: sandbox {what} in {time.monotonic() - started:.1f} s ({settings.sandbox})",
          file=sys.stderr)  # fmt: skip
    return 0


def _serve(settings: Settings) -> None:
    import uvicorn

    from app.connections import HeadTimeoutProtocol

    if _sandbox(settings):  # once here, so that every worker loads it ready-made
        sys.exit(1)

    if settings.uvicorn_proxies and not settings.trusted_proxies:
        print(
            f"gradstep: FORWARDED_ALLOW_IPS is not read; name the proxies in "
            f"{env_name('trusted_proxies')}: until then no X-Forwarded-For is believed",
            file=sys.stderr,
        )
    if settings.workers > 1 and not settings.broker_url:
        print(
            f"gradstep: with {settings.workers} workers and no {env_name('broker_url')}, a live "
            "class lives in the worker that made it, and students reaching another are told it "
            "does not exist: set it to a Redis address (redis://…) for live classes",
            file=sys.stderr,
        )
    uvicorn.run(
        "app.main:create_app",  # each worker process reads the settings when it makes its app
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        # uvicorn's limit counts idle connections too: the app counts requests in progress
        # (app/middleware/inflight.py), and a request head overdue closes its connection
        http=HeadTimeoutProtocol,
        # uvicorn's default believes X-Forwarded-For from 127.0.0.1: any local process, or a
        # proxy that passes the header on as sent, could be any client (and pass the rate limit)
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=settings.trusted_proxies.split(",") if settings.trusted_proxies else [],
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES,  # the app answers 414, 431
    )


if __name__ == "__main__":
    sys.exit(main())
