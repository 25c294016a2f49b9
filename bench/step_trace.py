"""Where a key press's frame goes: a Chromium performance trace of real → presses on the MLP
(979 values), and the renderer main thread's time per press by lifecycle phase. bench/browser.py
says how long a press takes to paint; this says what the time is spent on, so an idea can be
judged by the phase it should shrink, which is steadier on a shared machine than a percentile.

    python bench/step_trace.py [--presses N] [--rounds N] [--baseline DIR]

Per checkout and phase (forward, backward): p50 / p95 of key → next painted frame as
bench/browser.py measures it, then ms per press of top-level main-thread events: the keydown
handler, requestAnimationFrame callbacks, style, layout, pre-paint, hover hit tests, paint,
layerize, commit, and intersection observers (Chromium's own, for content-visibility). The
backward phase counts the flowing edges' animation frames between presses too. --baseline DIR
serves another checkout from a second uvicorn; the two take turns, round by round.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests" / "api"), str(ROOT / "tests" / "browser"), str(ROOT / "bench")]

from browser import KEYS_SEEN_JS, PROBE_JS, open_page, pct, start_server  # noqa: E402
from browser_wait import wait_for  # noqa: E402
from chromium import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from programs import mlp_source  # noqa: E402

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"]
PHASES = {
    "EventDispatch": "key",
    "FireAnimationFrame": "rAF",
    "UpdateLayoutTree": "style",
    "Layout": "layout",
    "PrePaint": "prepaint",
    "HitTest": "hittest",
    "Paint": "paint",
    "Layerize": "layerize",
    "Commit": "commit",
    "IntersectionObserverController::computeIntersections": "IO",
}


def breakdown(path: Path, presses: int) -> dict[str, float]:
    """ms per press of each phase on the renderer main thread (the thread that pre-paints),
    counting only events that are not inside another counted one."""
    events = json.loads(path.read_text())["traceEvents"]
    complete = [e for e in events if e.get("ph") == "X"]
    threads: dict[int, int] = {}
    for e in complete:
        if e["name"] == "PrePaint":
            threads[e["tid"]] = threads.get(e["tid"], 0) + 1
    main = max(threads, key=lambda t: threads[t])
    kept = sorted(
        (e for e in complete if e["tid"] == main and e["name"] in PHASES), key=lambda e: e["ts"]
    )
    totals = dict.fromkeys(PHASES.values(), 0.0)
    end = -1
    for e in kept:
        if e["ts"] < end:
            continue
        end = e["ts"] + e["dur"]
        totals[PHASES[e["name"]]] += e["dur"] / 1000 / presses
    return totals


def traced_presses(browser, page, phase: str, count: int, out: Path) -> list[float]:
    page.click("#first" if phase == "forward" else "#phase-backward")
    page.focus("#graph-view")
    page.evaluate("() => { window.__gradstepProbe.keys.length = 0; }")
    browser.start_tracing(page=page, path=str(out), categories=CATEGORIES)
    for n in range(1, count + 1):
        page.keyboard.press("ArrowRight")
        wait_for(page, KEYS_SEEN_JS, n)
    browser.stop_tracing()
    return page.evaluate("() => window.__gradstepProbe.keys.slice()")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presses", type=int, default=40, help="traced presses per phase")
    parser.add_argument("--rounds", type=int, default=2, help="turns per checkout")
    parser.add_argument("--baseline", type=Path, help="another checkout to measure alongside")
    args = parser.parse_args()
    roots = {"this": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    servers = {name: start_server(root) for name, root in roots.items()}
    rows: dict[tuple[str, str], list[tuple[list[float], dict[str, float]]]] = {}
    try:
        with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for r in range(args.rounds):
                names = list(servers)[r % len(servers) :] + list(servers)[: r % len(servers)]
                for name in names:
                    context = browser.new_context(viewport={"width": 1440, "height": 900})
                    context.add_init_script(PROBE_JS)
                    page, _ = open_page(context, servers[name][1], mlp_source())
                    for phase in ("forward", "backward"):
                        traced_presses(browser, page, phase, 10, Path(tmp) / "warm.json")
                        out = Path(tmp) / f"{name}-{phase}-{r}.json"
                        keys = traced_presses(browser, page, phase, args.presses, out)
                        rows.setdefault((name, phase), []).append(
                            (keys, breakdown(out, args.presses))
                        )
                    context.close()
            browser.close()
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait()
    report(rows)


def report(rows: dict[tuple[str, str], list[tuple[list[float], dict[str, float]]]]) -> None:
    names = list(PHASES.values())
    print("MLP, real → presses: key → next painted frame (ms), then main-thread ms per press")
    print(f"{'':<9} {'phase':<9} {'p50':>5} {'p95':>5}  " + " ".join(f"{n:>8}" for n in names))
    for (name, phase), runs in rows.items():
        for keys, parts in runs:
            cells = " ".join(f"{parts[n]:8.1f}" for n in names)
            total = sum(parts.values())
            print(
                f"{name:<9} {phase:<9} {pct(keys, 0.5):5.1f} {pct(keys, 0.95):5.1f}  {cells}"
                f"   sum {total:5.1f}"
            )


if __name__ == "__main__":
    main()
