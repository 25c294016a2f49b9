"""``gradstep serve``, ``gradstep render`` and ``gradstep links export|import``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, TextIO, get_args

from app import __version__
from app.capacity import Unavailable
from app.draw.layout import Layout
from app.draw.svg import standalone_svg
from app.links.store import StoreError, dump, load, open_store
from app.middleware import MAX_REQUEST_HEAD_BYTES
from app.numbers import ascii_digits
from app.pipeline import draw
from app.query import StepQuery, parse_values
from engine.errors import GradstepError
from engine.steps import Phase

DEFAULT_CONCURRENCY = 512  # per worker: a lecture hall's tabs, with room; beyond, 503 at once
GRACEFUL_SHUTDOWN_S = 30  # SIGTERM: in-flight requests (layout is capped at seconds) finish


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gradstep", description="See backpropagation move, node by node."
    )
    parser.add_argument("--version", action="version", version=f"gradstep {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the web app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers",
        type=_positive,
        default=1,
        help="worker processes (uvicorn's own); about one per core serves a lecture hall",
    )
    serve.add_argument(
        "--limit-concurrency",
        type=_positive,
        default=DEFAULT_CONCURRENCY,
        help="open connections per worker before uvicorn answers 503 (bounds every queue)",
    )
    render = commands.add_parser("render", help="draw a program's graph as a standalone SVG")
    render.add_argument("source", help="the program; @FILE reads a file, - reads stdin")
    render.add_argument("-o", "--output", required=True, help="the SVG file to write")
    render.add_argument("--values", help='input values: a=1,b=2 or {"a": 1}')
    render.add_argument("--step", type=int, help="a step index (omit: the finished graph)")
    render.add_argument("--phase", choices=get_args(Phase), default="backward")
    render.add_argument("--theme", choices=("light", "dark"), default="light")
    render.add_argument("--rankdir", choices=("LR", "TB"), default="LR")
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


def _read_source(arg: str) -> str:
    if arg == "-":
        return sys.stdin.read()
    if arg.startswith("@"):
        return Path(arg[1:]).read_text(encoding="utf-8")
    return arg


def _located(error: GradstepError) -> str:
    """``line 2, column 5: message``: the place once, before the message (which may say the
    line too: "invalid syntax (line 2)")."""
    span = error.span
    if span is None:
        return error.message
    message = error.message.replace(f" (line {span.line})", "", 1)
    return f"line {span.line}, column {span.column}: {message}"


def _render(args: argparse.Namespace) -> int:
    try:
        source = _read_source(args.source)
    except (OSError, UnicodeDecodeError) as error:
        why = "it is not UTF-8 text" if isinstance(error, UnicodeDecodeError) else error.strerror
        print(f"gradstep: cannot read the program {args.source[1:]}: {why}", file=sys.stderr)
        return 2
    layout = Layout()
    try:
        drawn = draw(layout, source, parse_values(args.values), args.rankdir)
        at = StepQuery(args.phase, args.step)
        at.check(drawn.trace)
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


def _links(args: argparse.Namespace) -> int:
    try:
        with open_store(args.database) as store:
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
    if args.command == "render":
        return _render(args)
    if args.command == "links":
        return _links(args)
    _serve(args)
    return 0


def _serve(args: argparse.Namespace) -> None:
    import uvicorn

    uvicorn.run(
        "app.main:create_app",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        limit_concurrency=args.limit_concurrency,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
        h11_max_incomplete_event_size=MAX_REQUEST_HEAD_BYTES,  # the app answers 414, 431
    )


if __name__ == "__main__":
    sys.exit(main())
