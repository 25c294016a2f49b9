// The stepper's model: a trace ({structure, numbers}: docs/api.md) indexed once, and what
// every node shows at a step: the structure's `start` with each step's `changes` laid over it.
// The engine decides every change (engine/trace/structure.py); this file only applies them, as
// engine/steps.py does for the server's pictures. Pure: no DOM.

import { unpacked } from "./lines.js";

export const GRAD_NONE = 0; // constants take no gradient: "grad —"
export const GRAD_PENDING = 1;
export const GRAD_PARTIAL = 2;
export const GRAD_FINAL = 3;
const GRAD = { none: GRAD_NONE, pending: GRAD_PENDING, partial: GRAD_PARTIAL, final: GRAD_FINAL };
const PHASES = ["forward", "backward", "update"];

/** Index the trace once per response, so every step is a cheap lookup. `fold` (the server's:
 * which element shows each node, which calls are boxes) and `over` (step over a folded call in
 * one step) shape the walk. */
export function buildModel(trace, source, fold = null, over = true) {
  const { numbers } = trace;
  const structure = unpacked(trace.structure);
  const count = structure.nodes.length;
  const byId = new Array(count);
  for (const node of structure.nodes) byId[node.id] = node;
  const operandEdges = Array.from({ length: count }, () => []);
  for (const edge of structure.edges) operandEdges[edge.target].push(edge);
  for (const list of operandEdges) list.sort((a, b) => a.position - b.position);
  const first = {}; // where each phase starts on the walk
  const steps = { forward: 0, backward: 0, update: 0 };
  structure.steps.forEach((s, i) => {
    first[s.phase] ??= i;
    steps[s.phase] += 1;
  });
  const model = {
    structure,
    numbers,
    source,
    count,
    byId,
    operandEdges,
    fold,
    calls: new Map(structure.calls.map((c) => [c.id, c])),
    first,
    forwardSteps: steps.forward,
    backwardSteps: steps.backward,
    updateSteps: steps.update,
    walk: null,
    // a learner's own engine: where its gradients went wrong (docs/api.md, numbers.findings),
    // the first first; each shown at the step it names (none named: the end of the walk)
    findings: numbers.findings ?? [],
    wrong: new Set((numbers.findings ?? []).map((f) => f.node)),
    findingsAt: new Map(),
  };
  for (const f of model.findings) {
    const at = f.step ?? structure.steps.length - 1;
    model.findingsAt.set(at, [...(model.findingsAt.get(at) ?? []), f]);
  }
  model.walk = buildWalk(model, over);
  return model;
}

/** The findings a walk entry shows: those of the steps it covers (a folded call: all of its). */
export function findingsOf(model, entry) {
  if (!model.findings.length || !entry) return [];
  const at = model.first[entry.phase] ?? 0;
  const out = [];
  for (let i = at + entry.step; i <= at + entry.end; i++) out.push(...(model.findingsAt.get(i) ?? []));
  return out;
}

/** The position on the walk where a finding is shown: its step's, or the end. */
export function findingPosition(model, finding) {
  const step = finding.step === null ? null : model.structure.steps[finding.step];
  if (!step) return timelineLength(model) - 1;
  return toTimeline(model, step.phase, finding.step - model.first[step.phase]);
}

/** The walk again, stepping over folded calls or into them (predict mode asks every step). */
export function setStepOver(model, over) {
  model.walk = buildWalk(model, over);
}

/** The folded call (its id) whose box shows `node`, or null. */
export function boxOf(model, node) {
  const unit = model.fold?.units[node];
  return unit?.startsWith("c") ? Number(unit.slice(1)) : null;
}

/** The step of the structure at (phase, step), or null. */
export function stepAt(model, phase, step) {
  const at = model.first[phase];
  return at === undefined ? null : (model.structure.steps[at + step] ?? null);
}

/** The walk: forward steps, then backward steps, then the program's update if it has one
 * (p.data += ...); stepping over, a folded call's run of steps is one entry {phase, step (its
 * first), end (its last), box}. */
function buildWalk(model, over) {
  const units = model.fold?.units ?? null;
  const walk = [];
  model.structure.steps.forEach((s, i) => {
    const step = i - model.first[s.phase];
    const unit = s.node === null ? null : units?.[s.node];
    const seed = s.phase === "backward" && step === 0;
    let box = over && unit?.startsWith("c") && !seed ? Number(unit.slice(1)) : null;
    // a call the engine gave no summary of this phase is stepped through (a learner's own
    // pass: its steps are their code's, in their order)
    const call = box === null ? null : model.calls.get(box);
    if (call && !(s.phase === "forward" ? call.forward_title : call.backward_title)) box = null;
    const last = walk.at(-1);
    if (box !== null && last?.phase === s.phase && last.box === box) last.end = step;
    else walk.push({ phase: s.phase, step, end: step, box });
  });
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
  const key = (e) => PHASES.indexOf(e.phase) * 1e9 + e.step;
  const target = PHASES.indexOf(phase) * 1e9 + step;
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
  return { forward: model.forwardSteps, backward: model.backwardSteps, update: model.updateSteps }[phase] ?? 0;
}

/** A slot's number (structure.slots says how it is written, numbers.slots holds it). */
export function slotValue(model, slot) {
  return model.numbers.slots[slot];
}

/**
 * What every node shows at (phase, step): the start, with the changes of every step up to it
 * laid over it; and the step's node with the edges that carry data or gradient.
 */
export function viewAt(model, phase, step, into = null) {
  const n = model.count;
  const view = into?.grad?.length === n ? into : { dataKnown: new Uint8Array(n), data: new Float64Array(n), grad: new Float64Array(n), gradState: new Uint8Array(n), bin: new Int8Array(n), updatedFlags: new Uint8Array(n) };
  const slots = model.numbers.slots;
  const { steps } = model.structure;
  view.dataKnown.fill(0);
  view.gradState.fill(GRAD_PENDING);
  view.grad.fill(0);
  view.bin.fill(0);
  view.updatedFlags.fill(0);
  for (const c of model.structure.start) apply(view, c, slots);
  const at = (model.first[phase] ?? steps.length) + step;
  for (let i = 0; i <= at && i < steps.length; i++) for (const c of steps[i].changes) apply(view, c, slots);
  const current = steps[at];
  view.current = current?.node ?? -1;
  view.flow = current?.flow ?? false;
  view.edges = (current?.edges ?? []).map(([target, position]) => drawnEdge(model, `e${target}-${position}`));
  view.updated = null;
  if (phase === "update") {
    view.updated = new Set();
    for (let id = 0; id < n; id++) if (view.updatedFlags[id]) view.updated.add(id);
  }
  return view;
}

/** Lay one change over the view (a field a change leaves out is unchanged). */
function apply(view, c, slots) {
  const id = c.node;
  if (c.data !== null && c.data !== undefined) {
    view.dataKnown[id] = 1;
    view.data[id] = slots[c.data];
  }
  if (c.grad) view.gradState[id] = GRAD[c.grad];
  if (c.value !== null && c.value !== undefined) view.grad[id] = slots[c.value];
  if (c.bin !== null && c.bin !== undefined) view.bin[id] = slots[c.bin];
  if (c.updated) view.updatedFlags[id] = 1;
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
    for (const call of model.structure.calls) if (call.parent === id) folded.add(call.id);
  } else {
    for (const call of model.structure.calls) if (within(model, call.id, id)) folded.delete(call.id);
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
