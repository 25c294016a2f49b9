// A training loop's iterations (the answer's `training`: the loss of each, the one drawn): the
// strip above the explanation, with its own scrubber, ‹ › buttons and a plot of the losses. The
// page asks the server for another iteration; every iteration has the same structure and layout,
// so the answer is numbers alone and the graph keeps its place.

import { formatNumber } from "./format.js";

const NS = "http://www.w3.org/2000/svg";
const PLOT = Object.freeze({ width: 240, height: 48, pad: 5 }); // the viewBox the plot is drawn in

/** Wire the strip in `root`; `go(k)` asks for iteration k. Returns render(training, decimals). */
export function wireIterations(root, go) {
  const part = (name) => root.querySelector(`[data-iterations="${name}"]`);
  const scrubber = part("scrubber");
  let shown = null;
  scrubber.addEventListener("change", () => go(Number(scrubber.value)));
  part("prev").addEventListener("click", () => shown && go(shown.iteration - 1));
  part("next").addEventListener("click", () => shown && go(shown.iteration + 1));
  part("plot").addEventListener("click", (e) => {
    if (!shown) return;
    const box = e.currentTarget.getBoundingClientRect();
    const x = ((e.clientX - box.left) / box.width) * PLOT.width;
    go(Math.round(((x - PLOT.pad) / (PLOT.width - 2 * PLOT.pad)) * (shown.losses.length - 1)));
  });

  return function render(training, decimals) {
    root.hidden = !training;
    if (!training) return (shown = null);
    const { losses, iteration } = training;
    const count = losses.length;
    scrubber.max = String(count - 1);
    if (scrubber.value !== String(iteration)) scrubber.value = String(iteration);
    const where = `${iteration + 1} of ${count}`;
    scrubber.setAttribute("aria-valuetext", `iteration ${where}`);
    part("prev").disabled = iteration <= 0;
    part("next").disabled = iteration >= count - 1;
    part("position").textContent = `iteration ${iteration}`;
    part("loss").textContent = `loss ${formatNumber(losses[iteration], decimals)}`;
    if (shown?.losses !== losses) drawPlot(part("plot"), losses);
    markPlot(part("plot"), losses, iteration);
    shown = training;
  };
}

function point(losses, i) {
  const low = Math.min(...losses);
  const high = Math.max(...losses);
  const x = PLOT.pad + (losses.length > 1 ? (i / (losses.length - 1)) * (PLOT.width - 2 * PLOT.pad) : 0);
  const y = PLOT.pad + (high > low ? ((high - losses[i]) / (high - low)) * (PLOT.height - 2 * PLOT.pad) : (PLOT.height - 2 * PLOT.pad) / 2);
  return [x, y];
}

function drawPlot(svg, losses) {
  svg.setAttribute("viewBox", `0 0 ${PLOT.width} ${PLOT.height}`);
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("class", "loss-line");
  line.setAttribute("points", losses.map((_, i) => point(losses, i).map((n) => n.toFixed(1)).join(",")).join(" "));
  const mark = document.createElementNS(NS, "circle");
  mark.setAttribute("class", "loss-mark");
  mark.setAttribute("r", "4.5");
  svg.replaceChildren(line, mark);
  svg.setAttribute("aria-label", `The loss of each iteration, from ${formatNumber(losses[0], 4)} to ${formatNumber(losses.at(-1), 4)}`);
}

function markPlot(svg, losses, i) {
  const [x, y] = point(losses, i);
  const mark = svg.querySelector(".loss-mark");
  mark.setAttribute("cx", x.toFixed(1));
  mark.setAttribute("cy", y.toFixed(1));
}
