// The input panel beside the graph: a slider and a number field per input, with its grad as
// far as the step shows it and, on request, the numerical check. DOM by textContent only.

import { el } from "./explain.js";
import { formatNumber } from "./format.js";
import { GRAD_NONE, GRAD_PENDING } from "./model.js";

/** Slider and number field per input, built once per program; returns the rows by name. */
export function buildInputs(container, model, ranges) {
  const rows = new Map();
  const children = [];
  // the inputs a name can set (made inside calls, an MLP's weights have no name of their own)
  const inputs = model.structure.inputs.filter((i) => i.settable).sort((a, b) => a.node - b.node);
  for (const input of inputs) {
    const name = input.name;
    const value = model.numbers.data[input.node];
    if (!ranges.has(name)) {
      // about 400 positions on a round step (0.01, 0.1, ...) so round numbers can be reached
      const half = Math.max(2, Math.abs(value) * 2);
      const step = 10 ** Math.floor(Math.log10((2 * half) / 400));
      const round = (x) => Number((Math.round(x / step) * step).toPrecision(12));
      ranges.set(name, { min: round(value - half), max: round(value + half), step });
    }
    const { min, max, step } = ranges.get(name);
    const id = `input-${input.node}`;
    const slider = el("input", { type: "range", id, min: String(min), max: String(max), step: String(step), "aria-label": `${name} (slider)` });
    const field = el("input", { type: "number", step: "any", "aria-label": `${name} (value)` });
    slider.dataset.label = name;
    field.dataset.label = name;
    const grads = el("div", { class: "grads" });
    children.push(el("div", { class: "input-row" }, el("label", { class: "name", for: id, text: name }), slider, field, grads));
    rows.set(name, { slider, field, grads, shown: null, value: null });
  }
  const inside = model.structure.inputs.length - inputs.length;
  if (inside) {
    const lead = children.length ? `${inside} more inputs are` : `This program's ${inside} inputs are`;
    children.push(el("p", { class: "hint", text: `${lead} made inside its calls (weights in a class): change them in the program.` }));
  } else if (children.length === 0) children.push(el("p", { class: "hint", text: "This program has no inputs to vary." }));
  container.replaceChildren(...children);
  return rows;
}

/** Refresh the numbers in the input rows. `showNumeric`: the central-difference check, which
 * reveals the final grads, so predict mode shows it only once they are revealed. */
export function paintInputs(rows, model, view, decimals, showNumeric, editing) {
  model.structure.inputs.forEach((input, i) => {
    const row = input.settable ? rows.get(input.name) : null;
    if (!row) return;
    const value = model.numbers.data[input.node];
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
    let numeric = "";
    if (showNumeric) {
      const check = model.numbers.checks[i];
      if (!input.checked) numeric = "numerical: not checked (the graph is too large)";
      else if (check.numeric === null) numeric = "numerical: not defined here";
      else numeric = `numerical ${formatNumber(check.numeric, decimals)} (rel. error ${formatNumber(check.rel_error, 1)})`;
    }
    const key = `${grad}|${numeric}`;
    if (row.shown === key) return;
    row.shown = key;
    row.grads.replaceChildren(`grad ${grad}`, numeric ? " · " : "", numeric ? el("span", { class: "numeric", text: numeric }) : "");
  });
}
