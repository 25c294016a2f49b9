"""``gradstep serve`` and ``gradstep render``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from app.capacity import Unavailable
from app.draw.layout import Layout
from app.draw.svg import standalone_svg
from app.pipeline import draw
from app.query import parse_values
from engine.errors import GradstepError

DEFAULT_CONCURRENCY = 512  # per worker: a lecture hall's tabs, with room; beyond, 503 at once
GRACEFUL_SHUTDOWN_S = 30  # SIGTERM: in-flight requests (layout is capped at seconds) finish


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gradstep", description="See backpropagation move, node by node."
    )
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
    render.add_argument("--phase", choices=("forward", "backward"), default="backward")
    render.add_argument("--theme", choices=("light", "dark"), default="light")
    render.add_argument("--rankdir", choices=("LR", "TB"), default="LR")
    return parser


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a positive whole number, not {text!r}")
    return int(text)


def _read_source(arg: str) -> str:
    if arg == "-":
        return sys.stdin.read()
    if arg.startswith("@"):
        return Path(arg[1:]).read_text(encoding="utf-8")
    return arg


def _render(args: argparse.Namespace) -> int:
    layout = Layout()
    try:
        drawn = draw(layout, _read_source(args.source), parse_values(args.values), args.rankdir)
        svg = drawn.svg(args.phase, args.step)
    except GradstepError as error:
        where = f" (line {error.span.line}, column {error.span.column})" if error.span else ""
        print(f"gradstep: {error.message}{where}", file=sys.stderr)
        return 2
    except Unavailable as error:  # the layout backend failed: not the program's fault
        print(f"gradstep: {error.detail}", file=sys.stderr)
        return 3
    finally:
        layout.close()
    Path(args.output).write_text(standalone_svg(svg, args.theme), encoding="utf-8")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "render":
        return _render(args)
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
    )


if __name__ == "__main__":
    sys.exit(main())
