// The SVG on the page: mounted once per program structure, then only its classes and texts
// change. Every write is skipped when the element already shows it, so a step touches only
// the handful of elements whose state moved.

import { boxNumber } from "./format.js";
import { boxOf, GRAD_FINAL, GRAD_NONE, GRAD_PARTIAL, GRAD_PENDING } from "./model.js";
import { polygonBox, sizeToContainer } from "./view.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const MAX_TAB_STOPS = 200;
const VALUE_FLAGS = ["data-known", "data-pending", "grad-none", "grad-pending", "grad-partial", "grad-final", "current", "selected", "updated", "wrong"];
const EDGE_FLAGS = ["current", "flow"];
const BOX_FLAGS = ["data-known", "data-pending", "current", "updated"];
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
  // a group, not an image: an image holds nothing a keyboard can reach, and the nodes are buttons
  svg.setAttribute("role", "group");
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
      // named by what it shows (its name, data and grad, read as drawn), its kind said apart:
      // a label of its own would hide the numbers on it from a screen reader
      g.setAttribute("role", "button");
      g.dataset.node = String(id);
      g.setAttribute("aria-roledescription", model.byId[id].kind);
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
    g?.setAttribute("aria-roledescription", "folded call");
    g?.setAttribute("aria-description", "opens when clicked");
    return g && { g, id, call: model.calls.get(id), flags: flagsOf(g, BOX_FLAGS) };
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

/** What marks a wrong grad besides its outline (graph.css shows it on .wrong only): a thin ring
 * just outside the box, on the graph's background whatever the box's colour, and a "≠" disc on
 * its top border where no edge meets it: the middle, or the right corner when the op's cell
 * (where the operands' edges come in) is on top; made the first time the node is wrong. */
function addWrongMark(entry) {
  entry.marked = true;
  const box = polygonBox(entry.g.querySelector("polygon"));
  if (!box) return;
  const mark = document.createElementNS(SVG_NS, "g");
  mark.setAttribute("class", "wrong-mark");
  mark.setAttribute("aria-hidden", "true");
  const shape = (tag, attrs) => {
    const el = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    mark.append(el);
    return el;
  };
  shape("rect", { class: "wrong-ring", x: box.x - 4, y: box.y - 4, width: box.width + 8, height: box.height + 8, rx: 4 });
  const op = entry.g.querySelector("text[id$='-op']");
  const opOnTop = op && Number(op.getAttribute("y")) < box.y + box.height / 3;
  const [cx, cy] = [opOnTop ? box.x + box.width : box.x + box.width / 2, box.y - 8]; // clear of the name
  shape("circle", { class: "wrong-disc", cx, cy, r: 9 });
  shape("text", { class: "wrong-sign", x: cx, y: cy + 4.5, "text-anchor": "middle" }).textContent = "≠";
  entry.g.append(mark);
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
    // a learner's engine: a grad that differs from the true one, once the step shows it final
    // (the rule of the server's pictures, app/draw/texts.py)
    if (state === GRAD_FINAL && model.wrong?.has(id)) flags |= VALUE_BIT.wrong;
    if (entry.g) {
      const wrong = Boolean(flags & VALUE_BIT.wrong);
      if (wrong && !entry.marked) addWrongMark(entry);
      if (wrong !== (entry.saysWrong ?? false)) {
        entry.saysWrong = wrong;
        if (wrong) entry.g.setAttribute("aria-description", "its grad differs from the true one");
        else entry.g.removeAttribute("aria-description");
      }
      setFlags(entry, VALUE_FLAGS, flags);
    }

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
  // the update step: a folded call whose box holds a value it changed (a Layer's weights) says so
  const updated = new Set([...(view.updated ?? [])].map((id) => boxOf(model, id)));
  for (const box of graph.calls) {
    const { first, last, outputs } = box.call;
    const known = outputs.every((o) => view.dataKnown[o] === 1);
    const here = view.current >= first && view.current <= last;
    setFlags(box, BOX_FLAGS, BOX_BIT[known ? "data-known" : "data-pending"] | (here ? BOX_BIT.current : 0) | (updated.has(box.id) ? BOX_BIT.updated : 0));
  }
  if (showTopo && !graph.badges) addTopoBadges(graph);
  graph.svg.classList.toggle("show-topo", showTopo);
}

/** The value node id under a DOM event target, or null. */
export function nodeIdOf(target) {
  const g = target.closest?.("g.node.value");
  return g ? Number(g.dataset.node) : null;
}
