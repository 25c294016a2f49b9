// The part of the graph in view: zoom, pan, fit, and following the step on a big graph. The
// view is `graph.viewBox`, shown by a CSS transform of the SVG (graph.js mounts it).

/** Give the graph and its overlay a size and a transform (the overlay always follows). */
function setSize(graph, name, value) {
  for (const svg of [graph.svg, graph.flow.svg]) if (svg.getAttribute(name) !== value) svg.setAttribute(name, value);
}

/** The SVG's size in whole pixels, set as attributes (see app.css for why not 100%). */
export function sizeToContainer(graph, container) {
  const width = Math.max(1, Math.floor(container.clientWidth));
  const height = Math.max(1, Math.floor(container.clientHeight));
  graph.size = { width, height };
  setSize(graph, "width", String(width));
  setSize(graph, "height", String(height));
  if (graph.viewBox) applyView(graph);
}

/** A polygon's bounding box from its points attribute (what getBBox gives, without making the
 * page lay the graph out), or null. */
export function polygonBox(poly) {
  const n = poly?.getAttribute("points")?.trim().split(/[\s,]+/).map(Number) ?? [];
  const xs = n.filter((_, i) => i % 2 === 0);
  const ys = n.filter((_, i) => i % 2 === 1);
  if (!ys.length || n.some((v) => !Number.isFinite(v))) return null;
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
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

/** The margin kept around the drawing: 2% of each side's own length (a wide graph's margin
 * taken from its width would cost a short view a tenth of its height, and of its text size). */
const margin = (h) => ({ x: h.width * 0.02, y: h.height * 0.02 });

/** The whole graph in view, with a small margin. */
export function fitGraph(graph) {
  const h = graph.home;
  const pad = margin(h);
  setViewBox(graph, { x: h.x - pad.x, y: h.y - pad.y, width: h.width + 2 * pad.x, height: h.height + 2 * pad.y });
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
  const pad = margin(h);
  const clamp = (v, lo, size, span) => (size >= span ? lo + (span - size) / 2 : Math.min(Math.max(v, lo), lo + span - size));
  return {
    x: clamp(target.x + target.width / 2 - width / 2, h.x - pad.x, width, h.width + 2 * pad.x),
    y: clamp(target.y + target.height / 2 - height / 2, h.y - pad.y, height, h.height + 2 * pad.y),
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
