// The stepper's model: the trace indexed once, and what every node shows at a step, read from
// the fields the engine put in the trace (computed_at, grad_from, grad_final, each
// contribution's grad_after and bin; engine/steps.py reads them the same way). Pure: no DOM.

export const GRAD_NONE = 0; // constants take no gradient: "grad —"
export const GRAD_PENDING = 1;
export const GRAD_PARTIAL = 2;
export const GRAD_FINAL = 3;

/** Index the trace once per response, so every step is a cheap lookup. */
export function buildModel(trace, source) {
  const count = trace.nodes.length;
  const byId = new Array(count);
  for (const node of trace.nodes) byId[node.id] = node;
  const operandEdges = Array.from({ length: count }, () => []);
  for (const edge of trace.edges) operandEdges[edge.target].push(edge);
  for (const list of operandEdges) list.sort((a, b) => a.position - b.position);
  return {
    trace,
    source,
    count,
    byId,
    operandEdges,
    forwardSteps: trace.forward.length,
    backwardSteps: trace.backward.length,
  };
}

/** The whole walk as one line: forward steps, then backward steps (the scrubber's positions). */
export function timelineLength(model) {
  return model.forwardSteps + model.backwardSteps;
}

export function toTimeline(model, phase, step) {
  return phase === "backward" ? model.forwardSteps + step : step;
}

export function fromTimeline(model, position) {
  const last = timelineLength(model) - 1;
  const p = Math.min(Math.max(position, 0), Math.max(last, 0));
  if (p >= model.forwardSteps && model.backwardSteps > 0) return { phase: "backward", step: p - model.forwardSteps };
  if (model.forwardSteps === 0) return { phase: "backward", step: 0 };
  return { phase: "forward", step: p };
}

/** A phase and step made valid for this trace (a shared URL may name a step out of range);
 * no step: the finished picture (the last backward step). */
export function clampStep(model, phase, step) {
  const steps = phase === "backward" ? model.backwardSteps : model.forwardSteps;
  if (steps === 0) return fromTimeline(model, 0);
  const s = Number.isInteger(step) ? Math.min(Math.max(step, 0), steps - 1) : steps - 1;
  return { phase, step: s };
}

/**
 * What every node shows at (phase, step): data known or not, the grad so far, its state and
 * colour bucket, and the current node with the edges that carry data or gradient.
 */
export function viewAt(model, phase, step, into = null) {
  const n = model.count;
  const view = into?.grad?.length === n ? into : { dataKnown: new Uint8Array(n), grad: new Float64Array(n), gradState: new Uint8Array(n), bin: new Int8Array(n) };
  const { byId, trace } = model;
  view.current = -1;
  view.edges = [];
  view.flow = phase === "backward";
  const backward = phase === "backward";
  for (let id = 0; id < n; id++) {
    const node = byId[id];
    view.dataKnown[id] = backward || node.computed_at <= step ? 1 : 0;
    if (node.grad === null) view.gradState[id] = GRAD_NONE;
    else if (!backward || step < node.grad_from) view.gradState[id] = GRAD_PENDING;
    else view.gradState[id] = step >= node.grad_final ? GRAD_FINAL : GRAD_PARTIAL;
  }
  if (!backward) {
    const current = trace.forward[step];
    if (current) {
      view.current = current.node;
      for (const e of model.operandEdges[current.node]) view.edges.push(`e${e.target}-${e.position}`);
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
    for (const c of current.contributions) view.edges.push(`e${current.node}-${c.position}`);
  }
  return view;
}
