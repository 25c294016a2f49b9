// What the program plotted with matplotlib.pyplot, drawn from the figures the sandbox recorded
// (engine/guest/modules/matplotlib): each figure a grid of axes, each axes an SVG with its
// ticks, labels, title, series (lines, points, bars) and legend. The record says what was
// drawn; this module only lays it out. DOM by createElementNS and textContent only.

import { formatNumber, trimZeros } from "./format.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 360;
const HEIGHT = 240;
const MARGIN = { left: 52, right: 12, top: 24, bottom: 40 };
const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];
const DASH = { "--": "6 4", ":": "2 3", "-.": "6 3 2 3" };

export function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Ticks for [lo, hi]: about `count` round numbers (1, 2, 5 × a power of ten). */
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const ticks = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Math.abs(t) < step * 1e-9 ? 0 : t);
  return ticks;
}

function logTicks(lo, hi) {
  const ticks = [];
  for (let e = Math.ceil(Math.log10(lo)); e <= Math.floor(Math.log10(hi)); e += 1) ticks.push(10 ** e);
  const every = Math.max(1, Math.ceil(ticks.length / 6));
  return ticks.filter((_, i) => i % every === 0);
}

/** An axis's tick: as short as it reads (an exponent past 1e5 or under 1e−3). */
export function tickText(x, log = false) {
  if (log) return `1e${Math.round(Math.log10(x))}`;
  const a = Math.abs(x);
  if (a !== 0 && (a >= 1e5 || a < 1e-3)) return x.toExponential(0).replace("+", "");
  return trimZeros(formatNumber(x, a >= 100 ? 0 : a >= 1 ? 1 : 3));
}

/** The range an axis shows: the data's, or the limits the program set; a log axis keeps the
 * positive values only. */
function extent(values, limits, log) {
  if (limits) return limits;
  const xs = values.filter((v) => v !== null && Number.isFinite(v) && (!log || v > 0));
  if (!xs.length) return log ? [1, 10] : [0, 1];
  let lo = Math.min(...xs);
  let hi = Math.max(...xs);
  if (lo === hi) [lo, hi] = log ? [lo / 10, hi * 10] : [lo - 1, hi + 1];
  if (log) return [lo, hi];
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

function scale([lo, hi], [a, b], log) {
  if (log) {
    const [l0, l1] = [Math.log10(lo), Math.log10(hi)];
    return (v) => a + ((Math.log10(v) - l0) / (l1 - l0)) * (b - a);
  }
  return (v) => a + ((v - lo) / (hi - lo)) * (b - a);
}

/** One axes of a figure, as an SVG. */
export function axesSvg(axes) {
  const series = axes.series ?? [];
  const xlog = axes.xscale === "log";
  const ylog = axes.yscale === "log";
  const xs = series.flatMap((s) => s.x);
  const ys = series.flatMap((s) => (s.kind === "bar" ? [...s.y, 0] : s.y));
  for (const line of axes.lines ?? []) (line.axis === "h" ? ys : xs).push(line.at);
  const xr = extent(xs, axes.xlim, xlog);
  const yr = extent(ys, axes.ylim, ylog);
  const X = scale(xr, [MARGIN.left, WIDTH - MARGIN.right], xlog);
  const Y = scale(yr, [HEIGHT - MARGIN.bottom, MARGIN.top], ylog);
  const root = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "plot", role: "img", "aria-label": axes.title || "a plot" });
  const clip = `clip${Math.random().toString(36).slice(2, 9)}`;
  const defs = svg("defs");
  const rect = svg("clipPath", { id: clip });
  rect.append(svg("rect", { x: MARGIN.left, y: MARGIN.top, width: WIDTH - MARGIN.left - MARGIN.right, height: HEIGHT - MARGIN.top - MARGIN.bottom }));
  defs.append(rect);
  root.append(defs);
  const frame = svg("g", { class: "plot-frame" });
  frame.append(svg("rect", { x: MARGIN.left, y: MARGIN.top, width: WIDTH - MARGIN.left - MARGIN.right, height: HEIGHT - MARGIN.top - MARGIN.bottom, class: "plot-box" }));
  for (const t of xlog ? logTicks(...xr) : niceTicks(...xr)) {
    if (t < xr[0] || t > xr[1]) continue;
    const x = X(t);
    if (axes.grid) frame.append(svg("line", { x1: x, x2: x, y1: MARGIN.top, y2: HEIGHT - MARGIN.bottom, class: "plot-grid" }));
    frame.append(svg("line", { x1: x, x2: x, y1: HEIGHT - MARGIN.bottom, y2: HEIGHT - MARGIN.bottom + 4, class: "plot-tick" }));
    frame.append(svg("text", { x, y: HEIGHT - MARGIN.bottom + 15, "text-anchor": "middle", class: "plot-tick-label" }, tickText(t, xlog)));
  }
  for (const t of ylog ? logTicks(...yr) : niceTicks(...yr)) {
    if (t < yr[0] || t > yr[1]) continue;
    const y = Y(t);
    if (axes.grid) frame.append(svg("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y, y2: y, class: "plot-grid" }));
    frame.append(svg("line", { x1: MARGIN.left - 4, x2: MARGIN.left, y1: y, y2: y, class: "plot-tick" }));
    frame.append(svg("text", { x: MARGIN.left - 6, y: y + 4, "text-anchor": "end", class: "plot-tick-label" }, tickText(t, ylog)));
  }
  root.append(frame);
  const body = svg("g", { "clip-path": `url(#${clip})` });
  series.forEach((s, k) => body.append(seriesSvg(s, k, X, Y, xlog, ylog, yr)));
  for (const line of axes.lines ?? []) {
    const at = line.axis === "h" ? Y(line.at) : X(line.at);
    const attrs = line.axis === "h" ? { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: at, y2: at } : { x1: at, x2: at, y1: MARGIN.top, y2: HEIGHT - MARGIN.bottom };
    body.append(svg("line", { ...attrs, class: "plot-rule", stroke: line.color ?? "currentColor", "stroke-dasharray": DASH[line.style] ?? "" }));
  }
  root.append(body);
  if (axes.title) root.append(svg("text", { x: (MARGIN.left + WIDTH - MARGIN.right) / 2, y: 16, "text-anchor": "middle", class: "plot-title" }, axes.title));
  if (axes.xlabel) root.append(svg("text", { x: (MARGIN.left + WIDTH - MARGIN.right) / 2, y: HEIGHT - 6, "text-anchor": "middle", class: "plot-label" }, axes.xlabel));
  if (axes.ylabel) root.append(svg("text", { x: 12, y: (MARGIN.top + HEIGHT - MARGIN.bottom) / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2})`, class: "plot-label" }, axes.ylabel));
  if (axes.legend) root.append(legendSvg(series));
  return root;
}

function colour(s, k) {
  return s.color ?? PALETTE[k % PALETTE.length];
}

function seriesSvg(s, k, X, Y, xlog, ylog, yr) {
  const g = svg("g", { class: `plot-series plot-${s.kind}` });
  const ok = (i) => s.x[i] !== null && s.y[i] !== null && (!xlog || s.x[i] > 0) && (!ylog || s.y[i] > 0);
  const color = colour(s, k);
  if (s.kind === "line") {
    let d = "";
    let pen = "M";
    for (let i = 0; i < s.x.length; i += 1) {
      if (!ok(i)) {
        pen = "M";
        continue;
      }
      d += `${pen}${X(s.x[i]).toFixed(1)},${Y(s.y[i]).toFixed(1)}`;
      pen = "L";
    }
    if (s.style !== "none" && s.style !== "") g.append(svg("path", { d, fill: "none", stroke: color, "stroke-width": s.width ?? 1.6, "stroke-dasharray": DASH[s.style] ?? "" }));
    if (s.marker) for (let i = 0; i < s.x.length; i += 1) if (ok(i)) g.append(svg("circle", { cx: X(s.x[i]), cy: Y(s.y[i]), r: 2.5, fill: color }));
  } else if (s.kind === "scatter") {
    const classes = s.colors ?? null;
    const r = s.size ? Math.max(1.5, Math.min(8, Math.sqrt(s.size) / 1.6)) : 3;
    for (let i = 0; i < s.x.length; i += 1) {
      if (!ok(i)) continue;
      const fill = classes ? PALETTE[Math.abs(Math.round(classes[i] ?? 0)) % PALETTE.length] : color;
      g.append(svg("circle", { cx: X(s.x[i]), cy: Y(s.y[i]), r, fill, "fill-opacity": 0.8 }));
    }
  } else if (s.kind === "bar") {
    const width = s.x.length > 1 ? Math.abs(X(s.x[1]) - X(s.x[0])) * 0.8 : 20;
    const base = Y(Math.max(yr[0], Math.min(0, yr[1])));
    for (let i = 0; i < s.x.length; i += 1) {
      if (!ok(i)) continue;
      const y = Y(s.y[i]);
      g.append(svg("rect", { x: X(s.x[i]) - width / 2, y: Math.min(y, base), width, height: Math.abs(base - y), fill: color }));
    }
  }
  return g;
}

function legendSvg(series) {
  const named = series.map((s, k) => [s, k]).filter(([s]) => s.label);
  const g = svg("g", { class: "plot-legend" });
  named.forEach(([s, k], i) => {
    const y = MARGIN.top + 12 + i * 15;
    g.append(svg("rect", { x: WIDTH - MARGIN.right - 104, y: y - 8, width: 10, height: 10, fill: colour(s, k) }));
    g.append(svg("text", { x: WIDTH - MARGIN.right - 90, y: y + 1, class: "plot-legend-label" }, s.label.slice(0, 18)));
  });
  return g;
}

/** Every figure: its title, then its axes in its grid. */
export function figuresContent(figures) {
  return figures.map((figure) => {
    const box = document.createElement("figure");
    box.className = "plot-figure";
    box.style.setProperty("--plot-cols", String(Math.max(1, Math.min(figure.cols || 1, 3))));
    const axes = [...(figure.axes ?? [])].sort((a, b) => a.row - b.row || a.col - b.col);
    for (const a of axes) box.append(axesSvg(a));
    if (figure.title || figure.line) {
      const caption = document.createElement("figcaption");
      caption.textContent = [figure.title, figure.line ? `line ${figure.line}` : ""].filter(Boolean).join(" · ");
      box.append(caption);
    }
    return box;
  });
}
