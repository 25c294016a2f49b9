"""The stepper's speed in Chromium (Playwright, Debian's Chromium, a live uvicorn on loopback):

1. run → drawn: from pressing Run to the graph drawn and painted with the step's state (the
   page's own performance marks), first run (layout computed) and again (layout cached);
2. one step: the median and 95th percentile over a full replay (every forward and backward step,
   by the → key), measured in the page from the key event to the new style and layout computed
   (script + style + layout; painting happens after, off this clock);
3. side by side, the alternative a stepper without deltas would use: replace the whole SVG per
   step (parse the server's SVG text and swap it in), timed the same way.

    python bench/browser.py [--runs N]

for the micrograd README program and an MLP(2,[16,16,1]) on one input (~1,000 values).
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "api"), str(ROOT / "tests" / "browser")]

from browser_wait import wait_for  # noqa: E402
from chromium import CHROMIUM, CHROMIUM_ARGS, SERVE_ARGS  # noqa: E402
from programs import mlp_source  # noqa: E402

from app.presets import MICROGRAD_README  # noqa: E402

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
  return { times, position: document.querySelector('#position').textContent };
}"""

COUNT_JS = """s => fetch('/api/graph', {
  method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({source: s}),
}).then(r => r.json()).then(b => b.trace.nodes.length)"""

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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:create_app", *SERVE_ARGS, str(port)],
        cwd=ROOT,
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


def run_to_drawn(page, source: str) -> float:
    before = int(page.locator("#graph-view").get_attribute("data-runs") or 0)
    page.evaluate("performance.clearMeasures('gradstep:run-to-drawn')")
    # a paste: the whole text at once (Playwright's fill types 11,000 characters slowly)
    page.evaluate(
        "s => { const t = document.querySelector('#source'); t.value = s;"
        " t.dispatchEvent(new Event('input')); }",
        source,
    )
    page.click("#run")
    wait_for(
        page, "n => Number(document.querySelector('#graph-view').dataset.runs || 0) > n", before, 60
    )
    return page.evaluate("performance.getEntriesByName('gradstep:run-to-drawn').at(-1).duration")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="repeats of run → drawn (cached)")
    args = parser.parse_args()
    programs = {"micrograd README": MICROGRAD_README, "MLP(2,[16,16,1])": mlp_source()}
    proc, url = start_server()
    rows = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.goto(url)
            wait_for(page, "() => document.querySelector('#graph-view').dataset.runs")
            for name, source in programs.items():
                values = page.evaluate(COUNT_JS, source)
                first = run_to_drawn(page, source + "\n# first\n")
                again = statistics.median(run_to_drawn(page, source) for _ in range(args.runs))
                replay = page.evaluate(REPLAY_JS)
                steps = sorted(replay["times"])
                median = statistics.median(steps)
                p95 = steps[int(0.95 * (len(steps) - 1))]
                rebuild = statistics.median(page.evaluate(REBUILD_JS, [source, 30]))
                rows.append((name, values, first, again, len(steps), median, p95, rebuild))
            browser.close()
    finally:
        proc.terminate()
        proc.wait()

    head = (
        f"{'program':<18} {'values':>6} {'run→drawn':>10} {'cached':>8} {'steps':>6}"
        f" {'step med':>9} {'step p95':>9} {'rebuild':>8} {'rebuild/step':>12}"
    )
    print(head)
    print("-" * len(head))
    for name, values, first, again, n, median, p95, rebuild in rows:
        print(
            f"{name:<18} {values:>6} {first:>8.0f}ms {again:>6.0f}ms {n:>6} {median:>7.2f}ms"
            f" {p95:>7.2f}ms {rebuild:>6.1f}ms {rebuild / median:>11.0f}×"
        )
    print("\nstep: key event → new classes/texts, style and layout computed (paint not included);")
    print(
        "rebuild: the alternative, swapping in the whole server SVG per step, timed the same way."
    )


if __name__ == "__main__":
    main()
