// A training loop's iterations (the answer's `training`: the loss of each, the one drawn): the
// strip above the explanation, with its own scrubber, ‹ › buttons and a plot of the losses. The
// page asks the server for another iteration; every iteration has the same structure and layout,
// so the answer is numbers alone and the graph keeps its place.

import { formatNumber } from "./format.js";
import { svg as svgElement, tickText } from "./plots.js";

const NS = "http://www.w3.org/2000/svg";
// the viewBox the plot is drawn in: the axes' labels in its margins (left: the loss, bottom: the
// iteration), the curve inside
const PLOT = Object.freeze({ width: 260, height: 40, left: 38, right: 10, top: 5, bottom: 12 });

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
    const along = (x - PLOT.left) / (PLOT.width - PLOT.left - PLOT.right);
    go(Math.min(shown.losses.length - 1, Math.max(0, Math.round(along * (shown.losses.length - 1)))));
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
  const wide = PLOT.width - PLOT.left - PLOT.right;
  const tall = PLOT.height - PLOT.top - PLOT.bottom;
  const x = PLOT.left + (losses.length > 1 ? (i / (losses.length - 1)) * wide : 0);
  const y = PLOT.top + (high > low ? ((high - losses[i]) / (high - low)) * tall : tall / 2);
  return [x, y];
}

function drawPlot(svg, losses) {
  svg.setAttribute("viewBox", `0 0 ${PLOT.width} ${PLOT.height}`);
  const { width, height, left, right, top, bottom } = PLOT;
  const floor = height - bottom;
  const axes = svgElement("path", { class: "loss-axes", d: `M${left} ${top}V${floor}H${width - right}` });
  const line = svgElement("polyline", { class: "loss-line", points: losses.map((_, i) => point(losses, i).map((n) => n.toFixed(1)).join(",")).join(" ") });
  const labels = [
    svgElement("text", { class: "loss-tick", x: left - 3, y: top + 8, "text-anchor": "end" }, tickText(Math.max(...losses))),
    svgElement("text", { class: "loss-tick", x: left - 3, y: floor, "text-anchor": "end" }, tickText(Math.min(...losses))),
    svgElement("text", { class: "loss-tick", x: left, y: height - 2, "text-anchor": "start" }, "0"),
    svgElement("text", { class: "loss-tick", x: width - right, y: height - 2, "text-anchor": "end" }, String(losses.length - 1)),
  ];
  const now = svgElement("line", { class: "loss-now", y1: top, y2: floor });
  const mark = svgElement("circle", { class: "loss-mark", r: 4.5 });
  svg.replaceChildren(axes, ...labels, line, now, mark);
  svg.setAttribute("aria-label", `The loss of each iteration, from ${formatNumber(losses[0], 4)} to ${formatNumber(losses.at(-1), 4)}`);
}

/** The iteration shown: a dot on the curve and a line down to the axis. */
function markPlot(svg, losses, i) {
  const [x, y] = point(losses, i);
  const mark = svg.querySelector(".loss-mark");
  mark.setAttribute("cx", x.toFixed(1));
  mark.setAttribute("cy", y.toFixed(1));
  for (const end of ["x1", "x2"]) svg.querySelector(".loss-now").setAttribute(end, x.toFixed(1));
}
