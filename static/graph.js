// The SVG on the page: mounted once per program structure, then only its classes and texts
// change. Every write is skipped when the element already shows it, so a step touches only
// the handful of elements whose state moved.

import { boxNumber } from "./format.js";
import { GRAD_FINAL, GRAD_NONE, GRAD_PARTIAL, GRAD_PENDING } from "./model.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const MAX_TAB_STOPS = 200;
const VALUE_FLAGS = ["data-known", "data-pending", "grad-none", "grad-pending", "grad-partial", "grad-final", "current", "selected", "updated"];
const EDGE_FLAGS = ["current", "flow"];
const BOX_FLAGS = ["data-known", "data-pending", "current"];
const bits = (names) => Object.fromEntries(names.map((name, i) => [name, 1 << i])); // as setFlags
const VALUE_BIT = bits(VALUE_FLAGS);
const BOX_BIT = bits(BOX_FLAGS);
const EDGE_BIT = bits(EDGE_FLAGS);
const GRAD_CLASS = { [GRAD_NONE]: "grad-none", [GRAD_PENDING]: "grad-pending", [GRAD_PARTIAL]: "grad-partial", [GRAD_FINAL]: "grad-final" };

/** Parse the server's SVG text and put it in `container`; returns the handle render() uses. */
export function mountGraph(container, svgText, model) {
  // the HTML parser reads the server's SVG 2–3× faster than DOMParser's XML one (same tree)
  const template = document.createElement("template");
  template.innerHTML = svgText;
  const parsed = template.content.firstElementChild;
  if (parsed?.namespaceURI !== SVG_NS || parsed.localName !== "svg") throw new Error("the server sent an SVG that does not parse");
  const svg = document.adoptNode(parsed); // moved, not copied
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "The computation graph");
  const graph = { svg, container, values: [], units: model.fold?.units ?? null, edges: new Map(), calls: [], boxes: new Map(), viewBox: null, home: null, size: null, count: model.count, fontSize: 14, badges: false };
  // sized before it is shown: setting its size after would lay all of it out again
  untranslate(svg);
  graph.flow = flowOverlay(svg);
  sizeToContainer(graph, container);
  svg.style.transform = "translate(0px, 0px) scale(1)"; // a transform from the start: fitting it later needs no layout
  graph.flow.svg.style.transform = svg.style.transform;
  container.replaceChildren(svg, graph.flow.svg);
  // below: writes and attribute reads only, so the page lays the graph out once, when drawn
  indexElements(graph, model);
  // the size Graphviz set a value's text in, in drawing units (for the readable zoom)
  graph.fontSize = Number.parseFloat(svg.querySelector("g.node.value text")?.getAttribute("font-size")) || graph.fontSize;
  const vb = svg.viewBox.baseVal;
  graph.home = { x: vb.x, y: vb.y, width: vb.width, height: vb.height };
  graph.resizer = new ResizeObserver(() => sizeToContainer(graph, container));
  graph.resizer.observe(container);
  return graph;
}

/** Move the translation Graphviz puts on its top group into the viewBox (the same picture).
 * Chromium paints every element under a transformed group, in view or not; without it, a step
 * on a large graph repaints only the values in view. */
function untranslate(svg) {
  const top = svg.getElementById("graph0");
  const m = top?.transform.baseVal.consolidate()?.matrix;
  if (!m || m.a !== 1 || m.b !== 0 || m.c !== 0 || m.d !== 1) return; // a scaled drawing keeps it
  const vb = svg.viewBox.baseVal;
  svg.setAttribute("viewBox", `${vb.x - m.e} ${vb.y - m.f} ${vb.width} ${vb.height}`);
  top.removeAttribute("transform");
}

/* The edges the gradient flows along are drawn with moving dashes. Animated inside the graph's
   SVG, they would make Chromium paint all of it again every frame (~1,000 values: a frame
   takes longer than a frame); so the page draws them in a small SVG of their own laid over the
   graph (graph.css: .gradstep-flow), with the same size, viewBox, drawing transform and view
   transform, and hides them in the graph. A standalone SVG keeps its own animated edges. */

/** An empty overlay for `svg`: an SVG with the same viewBox and a group with the same drawing
 * transform as Graphviz's top group. */
function flowOverlay(svg) {
  const overlay = document.createElementNS(SVG_NS, "svg");
  overlay.setAttribute("class", "gradstep-flow");
  overlay.setAttribute("aria-hidden", "true");
  for (const name of ["viewBox", "preserveAspectRatio"]) {
    if (svg.hasAttribute(name)) overlay.setAttribute(name, svg.getAttribute(name));
  }
  const layer = document.createElementNS(SVG_NS, "g");
  const transform = svg.getElementById("graph0")?.getAttribute("transform");
  if (transform) layer.setAttribute("transform", transform);
  overlay.append(layer);
  svg.classList.add("flow-overlaid");
  return { svg: overlay, layer, shown: "" };
}

/** Show the paths of the edges `keys` (drawn edge ids, in graph.edges) in the overlay; a no-op
 * when unchanged. */
function paintFlow(graph, keys) {
  const shown = keys.join(" ");
  if (graph.flow.shown === shown) return;
  graph.flow.shown = shown;
  const paths = keys.map((key) => graph.edges.get(key).g.querySelector("path")?.cloneNode(false)).filter(Boolean);
  graph.flow.layer.replaceChildren(...paths);
}

/** Give the graph and its overlay a size and a transform (the overlay always follows). */
function setSize(graph, name, value) {
  for (const svg of [graph.svg, graph.flow.svg]) if (svg.getAttribute(name) !== value) svg.setAttribute(name, value);
}

/** The SVG's size in whole pixels, set as attributes (see app.css for why not 100%). */
function sizeToContainer(graph, container) {
  const width = Math.max(1, Math.floor(container.clientWidth));
  const height = Math.max(1, Math.floor(container.clientHeight));
  graph.size = { width, height };
  setSize(graph, "width", String(width));
  setSize(graph, "height", String(height));
  if (graph.viewBox) applyView(graph);
}

/** Stop following the container's size (the graph is being replaced). */
export function unmountGraph(graph) {
  graph?.resizer?.disconnect();
}

function indexElements(graph, model) {
  const byId = (id) => graph.svg.getElementById(id);
  for (let id = 0; id < model.count; id++) {
    const g = byId(`n${id}`);
    const data = byId(`n${id}-data`); // in its own box, or listed in a folded call's box
    const grad = byId(`n${id}-grad`);
    graph.values.push(
      (g || data) && {
        g,
        data,
        grad,
        flags: flagsOf(g, VALUE_FLAGS), // the server drew the finished state: start from it
        bin: g ? binOf(g) : null,
        dataText: data ? data.textContent : null, // as drawn: paintGraph writes only changes
        gradText: grad ? grad.textContent : null,
      },
    );
    if (g) {
      // a tab stop per node helps on a small graph; on a big one it would be a trap
      if (model.count <= MAX_TAB_STOPS) g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.dataset.node = String(id);
      g.setAttribute("aria-label", `${model.byId[id].kind} ${model.byId[id].name}`);
    }
  }
  const drawn = new Set(model.fold ? Object.values(model.fold.edges) : model.structure.edges.map((e) => `e${e.target}-${e.position}`));
  for (const key of drawn) {
    const g = byId(key);
    if (g) graph.edges.set(key, { g, flags: flagsOf(g, EDGE_FLAGS) });
  }
  graph.calls = (model.fold?.folded ?? []).map((id) => {
    const g = byId(`c${id}`);
    g?.setAttribute("role", "button");
    g?.setAttribute("aria-label", `${model.calls.get(id).title}, folded: open it`);
    return g && { g, call: model.calls.get(id), flags: flagsOf(g, BOX_FLAGS) };
  }).filter(Boolean);
}

/** The bits of `names` that an element's classes already have (as setFlags numbers them). */
function flagsOf(g, names) {
  let flags = 0;
  if (g) names.forEach((name, bit) => g.classList.contains(name) && (flags |= 1 << bit));
  return flags;
}

/** The gbin-k bucket an element was drawn with, or null. */
function binOf(g) {
  const cls = [...g.classList].find((c) => /^gbin--?\d$/.test(c));
  return cls ? Number(cls.slice(5)) : null;
}

/** A small numbered disc at each value's top-left corner, made the first time they are shown
 * (CSS shows them on request); placed from the box's points, which needs no layout. */
function addTopoBadges(graph) {
  graph.badges = true;
  for (let id = 0; id < graph.count; id++) {
    const entry = graph.values[id];
    if (!entry?.g) continue;
    const box = polygonBox(entry.g.querySelector("polygon"));
    if (!box) continue;
    const badge = document.createElementNS(SVG_NS, "g");
    badge.setAttribute("class", "topo-badge");
    badge.setAttribute("aria-hidden", "true");
    const circle = document.createElementNS(SVG_NS, "circle");
    const text = document.createElementNS(SVG_NS, "text");
    for (const [k, v] of [["cx", box.x], ["cy", box.y], ["r", 9]]) circle.setAttribute(k, String(v));
    for (const [k, v] of [["x", box.x], ["y", box.y + 3.5], ["text-anchor", "middle"]]) text.setAttribute(k, String(v));
    text.textContent = String(id + 1); // ids are in creation order: a topological order
    badge.append(circle, text);
    entry.g.append(badge);
  }
}

/** A polygon's bounding box from its points attribute (what getBBox gives, without making the
 * page lay the graph out), or null. */
function polygonBox(poly) {
  const n = poly?.getAttribute("points")?.trim().split(/[\s,]+/).map(Number) ?? [];
  const xs = n.filter((_, i) => i % 2 === 0);
  const ys = n.filter((_, i) => i % 2 === 1);
  if (!ys.length || n.some((v) => !Number.isFinite(v))) return null;
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

function setFlags(entry, names, flags) {
  const changed = entry.flags ^ flags;
  if (!changed) return;
  for (let bit = 0; bit < names.length; bit++) {
    if (changed & (1 << bit)) entry.g.classList.toggle(names[bit], Boolean(flags & (1 << bit)));
  }
  entry.flags = flags;
}

function setText(entry, key, el, text) {
  if (el && entry[key] !== text) {
    el.textContent = text;
    entry[key] = text;
  }
}

/** Make the SVG show `view` (see model.viewAt). Idempotent; writes only what differs. */
export function paintGraph(graph, model, view, decimals, selected, showTopo) {
  const fresh = graph.decimals !== decimals;
  graph.decimals = decimals;
  for (let id = 0; id < model.count; id++) {
    const entry = graph.values[id];
    if (!entry) continue;
    const known = view.dataKnown[id] === 1;
    const state = view.gradState[id];
    let flags = VALUE_BIT[known ? "data-known" : "data-pending"] | VALUE_BIT[GRAD_CLASS[state]];
    if (view.current === id) flags |= VALUE_BIT.current;
    if (selected === id) flags |= VALUE_BIT.selected;
    if (view.updated?.has(id)) flags |= VALUE_BIT.updated;
    if (entry.g) setFlags(entry, VALUE_FLAGS, flags);

    const bin = state === GRAD_PARTIAL || state === GRAD_FINAL ? view.bin[id] : null;
    if (entry.g && bin !== entry.bin) {
      if (entry.bin !== null) entry.g.classList.remove(`gbin-${entry.bin}`);
      if (bin !== null) entry.g.classList.add(`gbin-${bin}`);
      entry.bin = bin;
    }
    // a number is formatted only when it (or the decimals) changed: most do not, per step
    const data = known ? view.data[id] : null;
    if (fresh || data !== entry.dataShown) setText(entry, "dataText", entry.data, known ? boxNumber(data, decimals) : "?");
    entry.dataShown = data;
    const grad = view.grad[id];
    if (fresh || state !== entry.gradState || grad !== entry.gradShown) {
      let text = "?";
      if (state === GRAD_NONE) text = "—";
      else if (state !== GRAD_PENDING) text = boxNumber(grad, decimals);
      setText(entry, "gradText", entry.grad, text);
    }
    entry.gradShown = grad;
    entry.gradState = state;
  }
  const lit = new Set(view.edges);
  const flowing = [];
  for (const [key, entry] of graph.edges) {
    const on = lit.has(key);
    setFlags(entry, EDGE_FLAGS, on ? EDGE_BIT[view.flow ? "flow" : "current"] : 0);
    if (on && view.flow) flowing.push(key);
  }
  paintFlow(graph, flowing);
  for (const box of graph.calls) {
    const { first, last, outputs } = box.call;
    const known = outputs.every((o) => view.dataKnown[o] === 1);
    const here = view.current >= first && view.current <= last;
    setFlags(box, BOX_FLAGS, BOX_BIT[known ? "data-known" : "data-pending"] | (here ? BOX_BIT.current : 0));
  }
  if (showTopo && !graph.badges) addTopoBadges(graph);
  graph.svg.classList.toggle("show-topo", showTopo);
}

/** The value node id under a DOM event target, or null. */
export function nodeIdOf(target) {
  const g = target.closest?.("g.node.value");
  return g ? Number(g.dataset.node) : null;
}

/* zoom and pan: `graph.viewBox` is the part of the drawing to show. It is shown by a CSS
   transform of the SVG, never by changing its viewBox attribute: a new viewBox makes Chromium
   lay out every node again (~40 ms on a 1,000-value graph), a transform costs no layout. */

function setViewBox(graph, box) {
  graph.viewBox = box;
  applyView(graph);
}

function applyView(graph) {
  const { width: W, height: H } = graph.size;
  const h = graph.home;
  const b = graph.viewBox;
  // where the SVG draws its own viewBox (preserveAspectRatio "meet", centred), and where `b` goes
  const s0 = Math.min(W / h.width, H / h.height);
  const s1 = Math.min(W / b.width, H / b.height);
  const k = s1 / s0;
  const tx = -k * ((W - s0 * h.width) / 2) + s1 * (h.x - b.x) + (W - s1 * b.width) / 2;
  const ty = -k * ((H - s0 * h.height) / 2) + s1 * (h.y - b.y) + (H - s1 * b.height) / 2;
  graph.svg.style.transform = `translate(${tx}px, ${ty}px) scale(${k})`;
  graph.flow.svg.style.transform = graph.svg.style.transform;
}

/** Client pixels per drawing unit along the axis that limits ("meet"). */
function unitsPerPixel(graph, box) {
  return Math.max(box.width / graph.size.width, box.height / graph.size.height) || 1;
}

/** The whole graph in view, with a small margin. */
export function fitGraph(graph) {
  const h = graph.home;
  const pad = Math.max(h.width, h.height) * 0.02;
  setViewBox(graph, { x: h.x - pad, y: h.y - pad, width: h.width + 2 * pad, height: h.height + 2 * pad });
}

/** Zoom by `factor` (> 1 zooms in) about a point given in client pixels (default: centre). */
export function zoomGraph(graph, factor, clientX = null, clientY = null) {
  const box = graph.viewBox ?? graph.home;
  const rect = graph.container.getBoundingClientRect();
  const s = unitsPerPixel(graph, box);
  const cx = clientX ?? rect.left + rect.width / 2;
  const cy = clientY ?? rect.top + rect.height / 2;
  const px = box.x + box.width / 2 + (cx - (rect.left + rect.width / 2)) * s;
  const py = box.y + box.height / 2 + (cy - (rect.top + rect.height / 2)) * s;
  const width = Math.min(Math.max(box.width / factor, 40), graph.home.width * 20);
  const f = width / box.width;
  setViewBox(graph, { x: px - (px - box.x) * f, y: py - (py - box.y) * f, width, height: box.height * f });
}

/** Move the view by a drag of (dx, dy) client pixels. */
export function panGraph(graph, dx, dy) {
  const box = graph.viewBox ?? graph.home;
  const s = unitsPerPixel(graph, box);
  setViewBox(graph, { ...box, x: box.x - dx * s, y: box.y - dy * s });
}

/** A node's box in viewBox coordinates (plus the top group's translation where untranslate
 * left one): its own, or that of the folded call that shows it. */
function nodeBox(graph, id) {
  if (graph.boxes.has(id)) return graph.boxes.get(id); // positions never change: read once
  const unit = graph.units?.[id];
  const g = graph.values[id]?.g ?? (unit ? graph.svg.getElementById(unit) : null);
  const b = polygonBox(g?.querySelector("polygon"));
  if (!b) return null;
  const m = graph.svg.getElementById("graph0")?.transform.baseVal.consolidate()?.matrix;
  const box = { x: b.x + (m ? m.e : 0), y: b.y + (m ? m.f : 0), width: b.width, height: b.height };
  graph.boxes.set(id, box);
  return box;
}

/** Text size targets from the graph frame's CSS (app.css; Present mode and the embed set their
 * own): below --graph-min-text px the whole graph is unreadable, so show --graph-read-text; a
 * small graph is not blown up past --graph-max-text. */
function textTargets(container) {
  const style = getComputedStyle(container);
  const px = (name, fallback) => Number.parseFloat(style.getPropertyValue(name)) || fallback;
  return { min: px("--graph-min-text", 9), read: px("--graph-read-text", 13), max: px("--graph-max-text", 32) };
}

/** The whole graph when its text is readable that way; otherwise a view around node `id` with
 * its text at a readable size, kept inside the drawing (stepping then follows the current
 * node: revealNode). Returns whether it zoomed in. */
export function fitReadable(graph, id) {
  sizeToContainer(graph, graph.container); // another ResizeObserver may not have told it yet
  fitGraph(graph);
  const { min, read, max } = textTargets(graph.container);
  const home = graph.viewBox;
  const scale = 1 / unitsPerPixel(graph, home); // pixels per drawing unit
  if (graph.size.width < 2) return false;
  if (graph.fontSize * scale > max) {
    // two boxes should not fill a projector: at most --graph-max-text, centred
    const k = (graph.fontSize * scale) / max;
    const width = home.width * k;
    const height = home.height * k;
    setViewBox(graph, { x: home.x - (width - home.width) / 2, y: home.y - (height - home.height) / 2, width, height });
    return false;
  }
  if (graph.fontSize * scale >= min) return false;
  const s = graph.fontSize / read; // drawing units per pixel at the readable size
  const width = Math.min(graph.size.width * s, home.width);
  const height = Math.min(graph.size.height * s, home.height);
  const target = nodeBox(graph, id) ?? { x: home.x, y: home.y, width: 0, height: 0 };
  setViewBox(graph, centredOn(graph, target, width, height));
  return true;
}

/** A view of `width` × `height` centred on `target`, moved as little as needed to stay inside
 * the drawing (no empty margin beside a graph that is larger than the view). */
function centredOn(graph, target, width, height) {
  const h = graph.home;
  const pad = Math.max(h.width, h.height) * 0.02;
  const clamp = (v, lo, size, span) => (size >= span ? lo + (span - size) / 2 : Math.min(Math.max(v, lo), lo + span - size));
  return {
    x: clamp(target.x + target.width / 2 - width / 2, h.x - pad, width, h.width + 2 * pad),
    y: clamp(target.y + target.height / 2 - height / 2, h.y - pad, height, h.height + 2 * pad),
    width,
    height,
  };
}

/** Bring a node into view if it is outside the visible box (stepping through a big graph). */
export function revealNode(graph, id) {
  const b = nodeBox(graph, id);
  const box = graph.viewBox;
  if (!b || !box) return;
  // the visible area is larger than the box along one axis (the aspect ratio is kept)
  const rect = graph.size;
  const s = unitsPerPixel(graph, box);
  const vw = rect.width * s;
  const vh = rect.height * s;
  const vx = box.x + box.width / 2 - vw / 2;
  const vy = box.y + box.height / 2 - vh / 2;
  if (b.x >= vx && b.y >= vy && b.x + b.width <= vx + vw && b.y + b.height <= vy + vh) return;
  const seen = centredOn(graph, b, vw, vh); // the visible area, then the box it shows
  setViewBox(graph, { ...box, x: seen.x + (vw - box.width) / 2, y: seen.y + (vh - box.height) / 2 });
}
