"""The stepper's speed in Chromium (Playwright, Debian's Chromium, a live uvicorn on loopback),
for the micrograd README program and an MLP(2,[16,16,1]) on one input (979 values):

1. open → drawn: a new tab opening the page on the program's URL, from navigation to the frame
   after the graph is drawn (the main thread's paint of it done), with the part spent waiting
   for /api/graph: the server's first open (a new process, nothing cached) apart; then, each
   round, the program as opened before (its layout cached) and with an input renamed (a new
   graph to the cache, laid out again: what opening a program not seen before costs);
2. key → paint: a real key press (page.keyboard.press →) to the next painted frame: the key
   event's own timestamp to a message posted from the next requestAnimationFrame, which runs
   once that frame's style, layout and paint are done; p50 and p95 over forward and backward
   steps, each press waiting for the previous frame;
3. one step in script: the median and 95th percentile over a full replay in the page (key
   event to style and layout computed, no paint), and side by side the alternative a stepper
   without deltas would use: replacing the whole SVG per step.

    python bench/browser.py [--runs N] [--presses N] [--baseline DIR]

--baseline DIR serves another checkout (e.g. ``git archive main | tar -x -C DIR``) from a
second uvicorn and measures it in the same run, the two taking turns round by round.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [
    str(ROOT),
    str(ROOT / "tests" / "api"),
    str(ROOT / "tests" / "browser"),
    str(ROOT / "bench"),
]

from browser_wait import wait_for  # noqa: E402
from chromium import CHROMIUM, CHROMIUM_ARGS, SERVE_ARGS  # noqa: E402
from programs import mlp_source  # noqa: E402
from served import free_port  # noqa: E402
from timing import Timing  # noqa: E402
from variants import first_input, renamed  # noqa: E402

from app.presets import MICROGRAD_README  # noqa: E402

# installed before the page's own scripts: when #graph-view's data-runs first changes (the
# graph is drawn), and for every keydown, the time of the frame painted after it
PROBE_JS = """(() => {
  const probe = { drawn: null, keys: [] };
  window.__gradstepProbe = probe;
  const afterPaint = (done) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    channel.port2.postMessage(0);
  });
  new MutationObserver((records, observer) => {
    if (!records.some((r) => r.target.id === 'graph-view')) return;
    observer.disconnect();
    afterPaint((t) => { probe.drawn = t; });
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-runs'] });
  document.addEventListener('keydown', (e) => {
    const t0 = e.timeStamp;
    afterPaint((t) => probe.keys.push(t - t0));
  }, true);
})();"""

OPENED_JS = """() => {
  const p = window.__gradstepProbe;
  if (!p || p.drawn === null) return null;
  const api = performance.getEntriesByType('resource')
    .filter((e) => e.name.endsWith('/api/graph')).at(-1);
  return { drawn: p.drawn, api: api ? api.responseEnd - api.startTime : null,
           response: api ? api.responseEnd : null };
}"""

KEYS_SEEN_JS = "n => window.__gradstepProbe.keys.length >= n"

REPLAY_JS = """() => {
  document.querySelector('#first').click();
  const steps = Number(document.querySelector('#scrubber').max);
  const svg = document.querySelector('#graph-view svg');
  const times = [];
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    svg.getBoundingClientRect();  // forces style and layout
    times.push(performance.now() - t0);
  }
  return times;
}"""

REBUILD_JS = """async ([source, count]) => {
  const response = await fetch('/api/graph', {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ source }),
  });
  const { svg } = await response.json();
  const view = document.querySelector('#graph-view');
  const box = document.createElement('div');
  box.style.cssText = 'position:fixed;left:0;top:0';
  box.style.width = `${view.clientWidth}px`;
  box.style.height = `${view.clientHeight}px`;
  document.body.append(box);
  const times = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    box.innerHTML = svg;
    box.firstElementChild.getBoundingClientRect();
    times.push(performance.now() - t0);
  }
  box.remove();
  return times;
}"""


def start_server(root: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:create_app", *SERVE_ARGS, str(port)], cwd=root
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1):
                return proc, url
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("uvicorn did not start")


def open_page(context, url: str, source: str) -> tuple[object, dict[str, float]]:
    """A new tab on the program's URL; returns it with its timings (ms since navigation)."""
    page = context.new_page()
    page.goto(f"{url}/?{urllib.parse.urlencode({'source': source})}")
    opened = wait_for(page, OPENED_JS, None, 120)
    return page, opened


def presses(page, phase: str, count: int) -> list[float]:
    """``count`` real → presses from the start of ``phase``, each to its next painted frame."""
    page.click("#first" if phase == "forward" else "#phase-backward")
    page.focus("#graph-view")
    page.evaluate("() => { window.__gradstepProbe.keys.length = 0; }")
    for n in range(1, count + 1):
        page.keyboard.press("ArrowRight")
        wait_for(page, KEYS_SEEN_JS, n)
    return page.evaluate("() => window.__gradstepProbe.keys.slice()")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[round(q * (len(ordered) - 1))]


def spread(values: list[float]) -> str:
    return f"{min(values):,.0f}–{max(values):,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="repeats of open → drawn")
    parser.add_argument("--presses", type=int, default=120, help="key presses per phase")
    parser.add_argument("--baseline", type=Path, help="another checkout to measure alongside")
    args = parser.parse_args()
    programs = {"README": MICROGRAD_README, "MLP": mlp_source()}
    roots = {"this": ROOT} | ({"baseline": args.baseline.resolve()} if args.baseline else {})
    servers = {name: start_server(root) for name, root in roots.items()}
    names = list(servers)
    opens: dict[tuple[str, str], Timing] = {}
    cold: dict[tuple[str, str], list[float]] = {}  # opens with the layout not cached
    firsts: dict[tuple[str, str], tuple[float, float]] = {}  # the first open's api, browser
    parts: dict[tuple[str, str], list[tuple[float, float]]] = {}
    keys: dict[tuple[str, str, str], list[float]] = {}
    steps: dict[tuple[str, str], tuple[list[float], float]] = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1440, "height": 900})
            context.add_init_script(PROBE_JS)
            for prog, source in programs.items():
                knob = first_input(source)
                for r in range(args.runs + 1):  # round 0: the first open, a source never laid out
                    for name in names[r % len(names) :] + names[: r % len(names)]:
                        url = servers[name][1]
                        text = source + f"\n# first {time.time_ns()}\n" if r == 0 else source
                        page, opened = open_page(context, url, text)
                        key = (name, prog)
                        if r == 0:
                            opens[key] = Timing(opened["drawn"] / 1000)
                            parts[key] = []
                            firsts[key] = (opened["api"], opened["drawn"] - opened["response"])
                            page.close()
                            # the plain source laid out once, for the repeats to find cached
                            page, _ = open_page(context, url, source)
                        else:
                            opens[key].repeats.append(opened["drawn"] / 1000)
                            parts[key].append((opened["api"], opened["drawn"] - opened["response"]))
                            new, drawn = open_page(context, url, renamed(source, knob, r))
                            cold.setdefault(key, []).append(drawn["drawn"])
                            new.close()
                        if r == args.runs:
                            for phase in ("forward", "backward"):
                                keys[(name, prog, phase)] = presses(page, phase, args.presses)
                            replay = page.evaluate(REPLAY_JS)
                            rebuild = statistics.median(page.evaluate(REBUILD_JS, [source, 30]))
                            steps[key] = (replay, rebuild)
                        page.close()
            browser.close()
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait()
    report(names, programs, opens, cold, firsts, parts, keys, steps)


def report(names, programs, opens, cold, firsts, parts, keys, steps) -> None:
    print("open → drawn (new tab on the program's URL, ms since navigation):")
    print("  median (first, spread); of the repeats: waiting for /api/graph, then the browser")
    for prog in programs:
        for name in names:
            t = opens[(name, prog)]
            api = [a for a, _ in parts[(name, prog)]]
            after = [b for _, b in parts[(name, prog)]]
            print(
                f"  {prog:<7} {name:<9} {t.median * 1000:>6,.0f} ms (first {t.first * 1000:,.0f},"
                f" {spread([x * 1000 for x in t.repeats])})   api {statistics.median(api):>5,.0f}"
                f" ({spread(api)})   browser {statistics.median(after):>5,.0f} ({spread(after)})"
            )
    print("  the first open apart, waiting for /api/graph, then the browser:")
    for prog in programs:
        for name in names:
            api, after = firsts[(name, prog)]
            print(f"  {prog:<7} {name:<9} api {api:>5,.0f}   browser {after:>5,.0f}")
    print("  a program not seen before (an input renamed: its layout not cached), median (spread):")
    for prog in programs:
        for name in names:
            c = cold[(name, prog)]
            print(f"  {prog:<7} {name:<9} {statistics.median(c):>6,.0f} ms ({spread(c)})")
    print("\nkey → next painted frame (real → presses), ms: p50 / p95 (lowest–highest)")
    for prog in programs:
        for name in names:
            row = []
            for phase in ("forward", "backward"):
                k = keys[(name, prog, phase)]
                row.append(
                    f"{phase} {pct(k, 0.5):5.1f} / {pct(k, 0.95):5.1f}"
                    f" ({min(k):.1f}–{max(k):.1f}, n={len(k)})"
                )
            print(f"  {prog:<7} {name:<9} " + "   ".join(row))
    print("\none step in script (key event → style and layout computed, no paint), full replay:")
    for prog in programs:
        for name in names:
            replay, rebuild = steps[(name, prog)]
            med = statistics.median(replay)
            print(
                f"  {prog:<7} {name:<9} median {med:5.2f} ms  p95 {pct(replay, 0.95):5.2f} ms"
                f"  ({len(replay)} steps)   whole SVG swapped per step: {rebuild:6.1f} ms"
                f" ({rebuild / med:.0f}×)"
            )


if __name__ == "__main__":
    main()
