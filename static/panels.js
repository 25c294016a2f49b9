// The panels beside the graph. Each function builds a small piece of DOM with textContent only
// (user text is never parsed as HTML) and is called by render() when its inputs changed.

import { backwardLines, forwardText, gradientSum, nodeName, spanText } from "./explain.js";
import { formatNumber } from "./format.js";
import { GRAD_NONE, GRAD_PENDING } from "./model.js";

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

/** The step's explanation: a title line and, per operand, the chain rule and the grad change. */
export function explanationContent(model, phase, step, decimals) {
  if (!model) return [el("p", { class: "hint", text: "Run a program to see its graph." })];
  if (phase === "forward") {
    const title = `Forward pass · step ${step + 1} of ${model.forwardSteps}`;
    return [el("p", { class: "step-title", text: title }), el("p", { class: "formula", text: forwardText(model, step, decimals) })];
  }
  const s = model.trace.backward[step];
  const name = s ? nodeName(model, s.node, decimals) : "";
  const out = [el("p", { class: "step-title", text: `Backward pass · step ${step + 1} of ${model.backwardSteps} · from ${name}` })];
  const lines = backwardLines(model, step, decimals);
  if (lines.length === 0) out.push(el("p", { class: "formula", text: `${name} sends no gradient on: its operands are constants.` }));
  for (const line of lines) {
    out.push(el("p", { class: "formula", text: line.formula }));
    const change = el("p", { class: `change${line.accumulates ? " accumulates" : ""}`, text: line.change });
    if (line.rule) change.append(el("span", { class: "rule", text: `rule: ${line.rule}` }));
    out.push(change);
  }
  return out;
}

/** Slider and number field per input, built once per program; returns the rows by label. */
export function buildInputs(container, model, ranges) {
  const rows = new Map();
  const children = [];
  const inputs = [...model.trace.inputs].sort((a, b) => a.node - b.node); // in source order
  for (const input of inputs) {
    const label = input.label;
    const value = model.byId[input.node].data;
    if (!ranges.has(label)) {
      // about 400 positions on a round step (0.01, 0.1, ...) so round numbers can be reached
      const half = Math.max(2, Math.abs(value) * 2);
      const step = 10 ** Math.floor(Math.log10((2 * half) / 400));
      const round = (x) => Number((Math.round(x / step) * step).toPrecision(12));
      ranges.set(label, { min: round(value - half), max: round(value + half), step });
    }
    const { min, max, step } = ranges.get(label);
    const id = `input-${input.node}`;
    const slider = el("input", { type: "range", id, min: String(min), max: String(max), step: String(step), "aria-label": `${label} (slider)` });
    const field = el("input", { type: "number", step: "any", "aria-label": `${label} (value)` });
    slider.dataset.label = label;
    field.dataset.label = label;
    const grads = el("div", { class: "grads" });
    const row = el("div", { class: "input-row" }, el("label", { class: "name", for: id, text: label }), slider, field, grads);
    children.push(row);
    rows.set(label, { slider, field, grads, shown: null, value: null });
  }
  if (children.length === 0) children.push(el("p", { class: "hint", text: "This program has no inputs to vary." }));
  container.replaceChildren(...children);
  return rows;
}

/** Refresh the numbers in the input rows (values, grads as far as the step shows, the check). */
export function paintInputs(rows, model, view, decimals, showNumeric, editing) {
  for (const input of model.trace.inputs) {
    const row = rows.get(input.label);
    if (!row) continue;
    const value = model.byId[input.node].data;
    if (row.value !== value) {
      // each write costs a layout: only when the value moved (not on every step)
      // an empty field reads as Number("") === 0: compare the text too, or a 0 never shows
      const shows = row.field.value !== "" && Number(row.field.value) === value;
      if (editing !== row.field && !shows) row.field.value = String(value);
      if (editing !== row.slider) row.slider.value = String(value);
      row.value = value;
    }
    const state = view.gradState[input.node];
    const grad = state === GRAD_PENDING || state === GRAD_NONE ? "?" : formatNumber(view.grad[input.node], decimals);
    const text = `grad ${grad}`;
    let numeric = "";
    if (showNumeric) {
      numeric = input.numeric === null ? "numerical: not defined here" : `numerical ${formatNumber(input.numeric, decimals)}`;
      if (input.rel_error !== null && input.numeric !== null) numeric += ` (rel. error ${input.rel_error.toExponential(1)})`;
    }
    const key = `${text}|${numeric}`;
    if (row.shown === key) continue;
    row.shown = key;
    row.grads.replaceChildren(text, numeric ? " · " : "", numeric ? el("span", { class: "numeric", text: numeric }) : "");
  }
}

/** The inspector for a selected value: what it is, its topological place, its gradient sum. */
export function inspectorContent(model, id, decimals) {
  if (!model || id === null || id === undefined || !model.byId[id]) {
    return [el("p", { class: "hint", text: "Click a node in the graph to see its gradient as a sum over its uses." })];
  }
  const node = model.byId[id];
  const fmt = (x) => formatNumber(x, decimals, { unicodeMinus: true });
  const fi = model.forwardIndex[id];
  const rows = [
    ["node", `${nodeName(model, id, decimals)} (#${id}, ${node.kind})`],
    ["made by", node.op ? `${node.op} (${node.symbol})${fi >= 0 ? `, forward step ${fi + 1}` : ""}` : "given"],
    ["data", fmt(node.data)],
    ["grad", node.grad === null ? "— (constant)" : fmt(node.grad)],
    ["topological", `${node.topo + 1} of ${model.count}`],
    ["used by", `${model.users[id].length} node${model.users[id].length === 1 ? "" : "s"}`],
  ];
  const src = spanText(model.source, node.span);
  if (src) rows.push(["source", `line ${node.span.line}: ${src}`]);
  const dl = el("dl");
  for (const [k, v] of rows) dl.append(el("dt", { text: k }), el("dd", { text: v }));
  return [dl, el("p", { class: "sum", text: gradientSum(model, id, decimals) })];
}

/** Predict mode's question for backward step j: one field per operand that receives gradient. */
export function predictQuestion(model, j, decimals) {
  const step = model.trace.backward[j];
  const asks = [];
  if (step.seed) {
    asks.push({ name: `${nodeName(model, step.node, decimals)}.grad`, answer: 1 });
  } else {
    for (const c of step.contributions) {
      if (model.byId[c.operand].kind === "constant") continue;
      asks.push({ name: `${nodeName(model, c.operand, decimals)}.grad`, answer: c.grad_after });
    }
  }
  const from = nodeName(model, step.node, decimals);
  const question = step.seed
    ? `Backward step ${j + 1}: the pass starts at the output ${from}. What is its grad?`
    : `Backward step ${j + 1}: ${from} sends its gradient on. What will these grads be after this step?`;
  return { question, asks };
}

export function predictFields(container, asks) {
  const fields = asks.map((a, i) => {
    const input = el("input", { type: "text", inputmode: "decimal", autocomplete: "off", id: `predict-${i}` });
    return el("label", { for: `predict-${i}` }, `${a.name} =`, input);
  });
  container.replaceChildren(...fields);
  return fields.map((f) => f.querySelector("input"));
}

/** While the student answers: the step's node and the rules it applies, without numbers. */
export function predictHint(model, j) {
  const step = model.trace.backward[j];
  const title = el("p", { class: "step-title", text: `Backward pass · step ${j + 1} of ${model.backwardSteps} · your turn` });
  if (step.seed) return [title, el("p", { class: "formula", text: "The pass starts at the output: what is its gradient with respect to itself?" })];
  const rules = step.contributions
    .filter((c) => model.byId[c.operand].kind !== "constant")
    .map((c) => el("p", { class: "formula", text: `${c.rule}   (here ${c.local_expr})` }));
  return [title, ...rules];
}
