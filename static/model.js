// The stepper's model: the trace indexed once, and what every node shows at a step, read from
// the fields the engine put in the trace (computed_at, grad_from, grad_final, each
// contribution's grad_after and bin; engine/steps.py reads them the same way). Pure: no DOM.

export const GRAD_NONE = 0; // constants take no gradient: "grad —"
export const GRAD_PENDING = 1;
export const GRAD_PARTIAL = 2;
export const GRAD_FINAL = 3;

/** Index the trace once per response, so every step is a cheap lookup. `fold` (the server's:
 * which element shows each node, which calls are boxes) and `over` (step over a folded call in
 * one step) shape the walk. */
export function buildModel(trace, source, fold = null, over = true) {
  const count = trace.nodes.length;
  const byId = new Array(count);
  for (const node of trace.nodes) byId[node.id] = node;
  const operandEdges = Array.from({ length: count }, () => []);
  for (const edge of trace.edges) operandEdges[edge.target].push(edge);
  for (const list of operandEdges) list.sort((a, b) => a.position - b.position);
  const units = fold?.units ?? null;
  const calls = new Map(trace.calls.map((c) => [c.id, c]));
  return {
    trace,
    source,
    count,
    byId,
    operandEdges,
    fold,
    calls,
    forwardSteps: trace.forward.length,
    backwardSteps: trace.backward.length,
    walk: buildWalk(trace, units, over),
  };
}

/** The walk again, stepping over folded calls or into them (predict mode asks every step). */
export function setStepOver(model, over) {
  model.walk = buildWalk(model.trace, model.fold?.units ?? null, over);
}

/** The folded call (its id) whose box shows `node`, or null. */
export function boxOf(model, node) {
  const unit = model.fold?.units[node];
  return unit?.startsWith("c") ? Number(unit.slice(1)) : null;
}

/** The walk: forward steps, then backward steps, then the program's update if it has one
 * (p.data += ...); stepping over, a folded call's run of steps is one entry {phase, step (its
 * first), end (its last), box}. */
function buildWalk(trace, units, over) {
  const walk = [];
  for (const phase of ["forward", "backward"]) {
    const steps = trace[phase];
    steps.forEach((s, i) => {
      const unit = units?.[s.node];
      const box = over && unit?.startsWith("c") && !s.seed ? Number(unit.slice(1)) : null;
      const last = walk.at(-1);
      if (box !== null && last?.phase === phase && last.box === box) last.end = i;
      else walk.push({ phase, step: i, end: i, box });
    });
  }
  if (trace.updates.length) walk.push({ phase: "update", step: 0, end: 0, box: null });
  return walk;
}

/** The whole walk as one line: forward steps, then backward steps (the scrubber's positions). */
export function timelineLength(model) {
  return model.walk.length;
}

/** The position on the walk of (phase, step): the entry that holds it. */
export function toTimeline(model, phase, step) {
  const { walk } = model;
  let lo = 0;
  let hi = walk.length - 1;
  const base = { forward: 0, backward: 1e9, update: 2e9 };
  const key = (e) => base[e.phase] + e.step;
  const target = base[phase] + step;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (key(walk[mid]) <= target) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(lo, 0);
}

/** The state a position shows: the end of its entry (a folded call: after its last step). */
export function fromTimeline(model, position) {
  const { walk } = model;
  if (!walk.length) return { phase: "backward", step: 0 };
  const e = walk[Math.min(Math.max(position, 0), walk.length - 1)];
  return { phase: e.phase, step: e.end };
}

/** The walk entry at a position (to explain a folded call's run as one step). */
export function entryAt(model, position) {
  return model.walk[Math.min(Math.max(position, 0), model.walk.length - 1)] ?? null;
}

/** A phase and step made valid for this trace (a shared URL may name a step out of range);
 * no step: the finished picture (the last backward step). */
export function clampStep(model, phase, step) {
  const steps = stepCount(model, phase);
  if (steps === 0) return fromTimeline(model, 0);
  const s = Number.isInteger(step) ? Math.min(Math.max(step, 0), steps - 1) : steps - 1;
  return fromTimeline(model, toTimeline(model, phase, s)); // the end of its entry
}

/** How many steps a phase has (the update is one step, when the program makes one). */
export function stepCount(model, phase) {
  if (phase === "update") return model.trace.updates.length ? 1 : 0;
  return phase === "forward" ? model.forwardSteps : model.backwardSteps;
}

/**
 * What every node shows at (phase, step): data known or not, the grad so far, its state and
 * colour bucket, and the current node with the edges that carry data or gradient.
 */
export function viewAt(model, phase, step, into = null) {
  const n = model.count;
  const view = into?.grad?.length === n ? into : { dataKnown: new Uint8Array(n), data: new Float64Array(n), grad: new Float64Array(n), gradState: new Uint8Array(n), bin: new Int8Array(n) };
  const { byId, trace } = model;
  if (phase === "update") return updatedView(model, view);
  view.current = -1;
  view.edges = [];
  view.flow = phase === "backward";
  view.updated = null;
  const backward = phase === "backward";
  for (let id = 0; id < n; id++) {
    const node = byId[id];
    view.data[id] = node.data;
    view.dataKnown[id] = backward || node.computed_at <= step ? 1 : 0;
    if (node.grad === null) view.gradState[id] = GRAD_NONE;
    else if (!backward || step < node.grad_from) view.gradState[id] = GRAD_PENDING;
    else view.gradState[id] = step >= node.grad_final ? GRAD_FINAL : GRAD_PARTIAL;
  }
  if (!backward) {
    const current = trace.forward[step];
    if (current) {
      view.current = current.node;
      for (const e of model.operandEdges[current.node]) view.edges.push(drawnEdge(model, `e${e.target}-${e.position}`));
    }
    return view;
  }
  const out = trace.output;
  view.grad[out] = 1;
  view.bin[out] = byId[out].bin;
  for (let j = 1; j <= step && j < trace.backward.length; j++) {
    for (const c of trace.backward[j].contributions) {
      view.grad[c.operand] = c.grad_after;
      view.bin[c.operand] = c.bin;
    }
  }
  const current = trace.backward[step];
  if (current) {
    view.current = current.node;
    for (const c of current.contributions) view.edges.push(drawnEdge(model, `e${current.node}-${c.position}`));
  }
  return view;
}

/** The finished backward picture with the program's update applied: the changed leaves show
 * their new data (their grads stay: micrograd keeps them until zero_grad()). */
function updatedView(model, view) {
  viewAt(model, "backward", model.backwardSteps - 1, view);
  view.current = -1;
  view.edges = [];
  view.flow = false;
  view.updated = new Set();
  for (const u of model.trace.updates) {
    view.data[u.node] = u.after;
    view.updated.add(u.node);
  }
  return view;
}

/** The edge drawn for an operand edge: itself, one merged into a box's, or none (inside a box). */
export function drawnEdge(model, key) {
  return model.fold ? (model.fold.edges[key] ?? null) : key;
}

/** The fold request (app/draw/fold.py) after a click on a folded call's box ("c3": open it one
 * level, as a tree does, the calls it made staying folded) or on an open call's frame ("k3":
 * fold it, and everything inside it opens); null for anything else. */
export function refolded(model, element) {
  const id = Number(element.slice(1));
  if (!Number.isInteger(id) || !model.calls.has(id)) return null;
  const folded = new Set(model.fold?.folded ?? []);
  if (element.startsWith("c")) {
    folded.delete(id);
    for (const call of model.trace.calls) if (call.parent === id) folded.add(call.id);
  } else {
    for (const call of model.trace.calls) if (within(model, call.id, id)) folded.delete(call.id);
    folded.add(id);
  }
  return [...folded].sort((a, b) => a - b).join(",") || "none";
}

/** Whether call `inner` was made inside call `outer`. */
function within(model, inner, outer) {
  for (let call = model.calls.get(inner)?.parent; call !== null && call !== undefined; call = model.calls.get(call).parent) {
    if (call === outer) return true;
  }
  return false;
}
