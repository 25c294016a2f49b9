// The stepper's model: what every node shows at a given step, computed from the trace alone
// (docs/graph-contract.md, "Step states"). Pure: no DOM, so it can be tested and reasoned about.

export const GRAD_NONE = 0; // constants take no gradient: "grad —"
export const GRAD_PENDING = 1;
export const GRAD_PARTIAL = 2;
export const GRAD_FINAL = 3;

/** Index the trace once per response, so every step is a cheap replay. */
export function buildModel(trace, source) {
  const count = trace.nodes.length;
  const byId = new Array(count);
  for (const node of trace.nodes) byId[node.id] = node;
  const operandEdges = Array.from({ length: count }, () => []);
  for (const edge of trace.edges) operandEdges[edge.target].push(edge);
  for (const list of operandEdges) list.sort((a, b) => a.position - b.position);

  const forwardIndex = new Int32Array(count).fill(-1);
  trace.forward.forEach((step, i) => {
    forwardIndex[step.node] = i;
  });

  // How many contributions each value receives in total, and who sends them (the inspector).
  const expected = new Int32Array(count);
  const users = Array.from({ length: count }, () => []);
  trace.backward.forEach((step, j) => {
    if (step.seed) expected[step.node] += 1;
    for (const c of step.contributions) {
      if (byId[c.operand].kind === "constant") continue;
      expected[c.operand] += 1;
      users[c.operand].push({ step: j, from: step.node, contribution: c });
    }
  });

  let maxAbsGrad = 0;
  for (const node of trace.nodes) {
    if (node.grad !== null && Number.isFinite(node.grad)) {
      maxAbsGrad = Math.max(maxAbsGrad, Math.abs(node.grad));
    }
  }
  return {
    trace,
    source,
    count,
    byId,
    operandEdges,
    forwardIndex,
    expected,
    users,
    maxAbsGrad,
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
  if (p >= model.forwardSteps && model.backwardSteps > 0) {
    return { phase: "backward", step: p - model.forwardSteps };
  }
  if (model.forwardSteps === 0) return { phase: "backward", step: 0 };
  return { phase: "forward", step: p };
}

/** A phase and step made valid for this trace (a shared URL may name a step out of range). */
export function clampStep(model, phase, step) {
  const steps = phase === "backward" ? model.backwardSteps : model.forwardSteps;
  if (steps === 0) return fromTimeline(model, 0);
  const s = Number.isInteger(step) ? Math.min(Math.max(step, 0), steps - 1) : steps - 1;
  return { phase, step: s };
}

/** Diverging bucket -3..3 of grad / max|grad| (0 exactly is bucket 0), as app/stepview.py. */
export function gradBucket(grad, maxAbsGrad) {
  if (grad === 0 || maxAbsGrad === 0 || !Number.isFinite(grad)) return 0;
  const size = Math.min(3, Math.ceil((3 * Math.abs(grad)) / maxAbsGrad - 1e-12));
  return grad > 0 ? size : -size;
}

/**
 * What every node shows at (phase, step): data known or not, grad so far and its state, and the
 * ids that are current or carry gradient. O(nodes + contributions), no allocation per node.
 */
export function viewAt(model, phase, step, into = null) {
  const n = model.count;
  const view = into ?? {
    dataKnown: new Uint8Array(n),
    grad: new Float64Array(n),
    gradState: new Uint8Array(n),
    received: new Int32Array(n),
    current: -1,
    edges: [],
    flow: false,
  };
  const { byId, trace } = model;
  view.received.fill(0);
  view.grad.fill(0);
  view.edges = [];
  view.current = -1;
  view.flow = phase === "backward";

  for (let id = 0; id < n; id++) {
    const k = byId[id].kind;
    const fi = model.forwardIndex[id];
    view.dataKnown[id] = phase === "backward" || k === "input" || k === "constant" || fi <= step ? 1 : 0;
    if (fi < 0 && k !== "input" && k !== "constant") view.dataKnown[id] = 1; // nothing computes it
  }

  if (phase === "forward") {
    const current = trace.forward[step];
    for (let id = 0; id < n; id++) {
      view.gradState[id] = byId[id].kind === "constant" ? GRAD_NONE : GRAD_PENDING;
    }
    if (current) {
      view.current = current.node;
      for (const e of model.operandEdges[current.node]) view.edges.push(`e${e.target}-${e.position}`);
      view.edges.push(`r${current.node}`);
    }
    return view;
  }

  for (let j = 0; j <= step && j < trace.backward.length; j++) {
    const s = trace.backward[j];
    if (s.seed) {
      view.grad[s.node] = 1;
      view.received[s.node] += 1;
    }
    for (const c of s.contributions) {
      if (byId[c.operand].kind === "constant") continue;
      view.grad[c.operand] = c.grad_after;
      view.received[c.operand] += 1;
    }
  }
  for (let id = 0; id < n; id++) {
    if (byId[id].kind === "constant") view.gradState[id] = GRAD_NONE;
    else if (model.expected[id] === 0) {
      view.gradState[id] = GRAD_FINAL; // no path to the output: its grad stays 0
      view.grad[id] = 0;
    } else if (view.received[id] === 0) view.gradState[id] = GRAD_PENDING;
    else if (view.received[id] < model.expected[id]) view.gradState[id] = GRAD_PARTIAL;
    else view.gradState[id] = GRAD_FINAL;
  }
  const current = trace.backward[step];
  if (current) {
    view.current = current.node;
    for (const c of current.contributions) view.edges.push(`e${current.node}-${c.position}`);
  }
  return view;
}
