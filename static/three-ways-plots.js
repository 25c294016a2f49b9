// The Three ways view's two pictures, drawn from POST /api/three-ways's answer as it is: the
// numerical error against h on log-log axes (the sweep the engine ran, its sweet spot and the h
// the values use), and the costs as bars. Nothing is computed here but positions; the numbers
// written are the answer's. DOM by createElementNS and textContent only.

import { svg } from "./plots.js";

// a viewBox the SVG scales into its column: its text is sized for a projector at that width
const WIDTH = 520;
const HEIGHT = 300;
const MARGIN = { left: 78, right: 18, top: 22, bottom: 58 };
const FLOOR = 1e-17; // an error of exactly 0 drawn on the axis's floor (log 0 is not a place)

const exponentText = (x) => `1e${Math.round(Math.log10(x))}`.replace("-", "\u2212");

/** |error| against h, log-log: the answer's `sweep` (the h's) and one input's sweep (errors,
 * best), with the sweet spot marked and the value's h drawn as a dashed line. */
export function errorPlot(hs, sweep, h, name) {
  const points = hs.map((x, i) => [x, sweep.error[i]]).filter(([, e]) => e !== null);
  const shown = points.map(([x, e]) => [x, Math.max(e, FLOOR)]);
  const ys = shown.map(([, e]) => e);
  const lo = 10 ** Math.floor(Math.log10(Math.min(...ys)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...ys)));
  const [x0, x1] = [Math.log10(hs[0]), Math.log10(hs.at(-1))];
  const [y0, y1] = [Math.log10(lo), Math.log10(hi === lo ? hi * 10 : hi)];
  const px = (x) => MARGIN.left + ((Math.log10(x) - x0) / (x1 - x0)) * (WIDTH - MARGIN.left - MARGIN.right);
  const py = (y) => HEIGHT - MARGIN.bottom - ((Math.log10(y) - y0) / (y1 - y0)) * (HEIGHT - MARGIN.top - MARGIN.bottom);
  const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "ways-plot error-plot", role: "img" });
  root.append(svg("title", {}, `|central difference − exact| against h for ${name}, log-log`));
  const axes = svg("g", { class: "axes" });
  const bottom = HEIGHT - MARGIN.bottom;
  axes.append(svg("line", { x1: MARGIN.left, y1: bottom, x2: WIDTH - MARGIN.right, y2: bottom }));
  axes.append(svg("line", { x1: MARGIN.left, y1: MARGIN.top, x2: MARGIN.left, y2: bottom }));
  for (let e = Math.ceil(x0); e <= Math.floor(x1); e += 3) {
    axes.append(svg("line", { class: "tick", x1: px(10 ** e), y1: bottom, x2: px(10 ** e), y2: bottom + 5 }));
    axes.append(svg("text", { x: px(10 ** e), y: bottom + 26, "text-anchor": "middle" }, exponentText(10 ** e)));
  }
  const yStep = Math.max(1, Math.ceil((y1 - y0) / 5));
  for (let e = Math.ceil(y0); e <= Math.floor(y1); e += yStep) {
    axes.append(svg("line", { class: "grid", x1: MARGIN.left, y1: py(10 ** e), x2: WIDTH - MARGIN.right, y2: py(10 ** e) }));
    axes.append(svg("text", { x: MARGIN.left - 8, y: py(10 ** e) + 7, "text-anchor": "end" }, exponentText(10 ** e)));
  }
  axes.append(svg("text", { class: "axis-label", x: (MARGIN.left + WIDTH - MARGIN.right) / 2, y: HEIGHT - 6, "text-anchor": "middle" }, "step h"));
  root.append(axes);
  // the h the values use, dashed
  root.append(svg("line", { class: "h-line", x1: px(h), y1: MARGIN.top, x2: px(h), y2: bottom }));
  root.append(svg("text", { class: "h-label", x: px(h) - 6, y: MARGIN.top + 16, "text-anchor": "end" }, `h = ${exponentText(h)}`));
  const path = shown.map(([x, e], i) => `${i ? "L" : "M"}${px(x).toFixed(1)},${py(e).toFixed(1)}`).join("");
  root.append(svg("path", { class: "error-line", d: path }));
  const best = sweep.error[sweep.best] === null ? null : [hs[sweep.best], Math.max(sweep.error[sweep.best], FLOOR)];
  if (best) {
    const [bx, by] = [px(best[0]), py(best[1])];
    root.append(svg("circle", { class: "sweet-spot", cx: bx, cy: by, r: 8 }));
    // its label beside the point, on the side with room, haloed in the panel's colour so the
    // curve crossing it does not hide a letter
    const label = `sweet spot h ≈ ${best[0].toExponential(1).replace("-", "\u2212")}`;
    const left = bx > WIDTH * 0.55;
    root.append(svg("text", { class: "sweet-label", x: bx + (left ? -14 : 14), y: Math.max(by - 14, MARGIN.top + 20), "text-anchor": left ? "end" : "start" }, label));
  }
  return root;
}

/** The costs as bars, one per way, each written with its count: `rows` are [label, count]. */
export function costBars(rows) {
  const widest = Math.max(...rows.map(([, n]) => n), 1);
  const barH = 40;
  const labelW = 200;
  const height = rows.length * barH + 8;
  const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${height}`, class: "ways-plot cost-bars", role: "img" });
  root.append(svg("title", {}, "elementary operations of each way"));
  rows.forEach(([label, n], i) => {
    const y = 4 + i * barH;
    const w = Math.max(2, (n / widest) * (WIDTH - labelW - 100));
    root.append(svg("text", { x: labelW - 8, y: y + barH / 2 + 6, "text-anchor": "end" }, label));
    root.append(svg("rect", { class: `bar bar-${i}`, x: labelW, y: y + 4, width: w, height: barH - 10, rx: 3 }));
    root.append(svg("text", { class: "bar-count", x: labelW + w + 8, y: y + barH / 2 + 6 }, n.toLocaleString("en")));
  });
  return root;
}
