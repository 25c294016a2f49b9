// The words of each step, the inspector and predict mode, built from the structure's rows
// (engine/notation.py writes them; parts.js formats their numbers). DOM by textContent only:
// user text is never parsed as HTML. Nothing here writes maths of its own.

import { formatNumber } from "./format.js";
import { findingsOf, stepAt } from "./model.js";
import { findingText, partsText, rowCells } from "./parts.js";

const CELL_CLASS = { accumulates: "change accumulates" }; // a role's CSS classes, when not the role alone

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

/** The engine's title for a walk entry: "Backward step 3 of 10 · o = tanh(n) · in Neuron 3";
 * a folded call stepped over: "Backward steps 4–9 of 40 · Neuron 3, folded". */
export function stepTitle(model, entry) {
  if (entry.box !== null) {
    const call = model.calls.get(entry.box);
    return entry.phase === "forward" ? call.forward_title : call.backward_title;
  }
  return stepAt(model, entry.phase, entry.step)?.title ?? "";
}

/** The findings a step's explanation shows: a finding the same mistake made, of the same kind
 * as it (a sibling), adds nothing there. */
const shownFindings = (model, entry) => findingsOf(model, entry).filter((f) => f.cause === null || model.findings[f.cause].kind !== f.kind);

/** The step's explanation as rows: each a list of {class, text} cells; then, for a learner's
 * engine, a row per finding this step is where it went wrong (its sentence, role "finding"). */
export function explanationRows(model, entry, decimals) {
  const cells = (row) => rowCells(row, model, decimals).map((c) => ({ class: CELL_CLASS[c.role] ?? c.role, text: c.text }));
  const findings = shownFindings(model, entry).map((f) => [{ class: "finding", text: findingText(f, decimals) }]);
  if (entry.box !== null) {
    const call = model.calls.get(entry.box);
    const lines = entry.phase === "forward" ? call.forward : call.backward;
    return [...lines.map((line) => [{ class: "formula", text: partsText(line, model, decimals) }]), ...findings];
  }
  return [...(stepAt(model, entry.phase, entry.step)?.rows ?? []).map(cells), ...findings];
}

/** The most rows any step of the walk explains with (findings included): Present mode sizes the
 * explanation once per program to it, so the graph keeps every pixel the words do not need. */
export function tallestExplanation(model) {
  let most = 0;
  for (const entry of model.walk) {
    const call = entry.box === null ? null : model.calls.get(entry.box);
    const rows = call ? (entry.phase === "forward" ? call.forward : call.backward).length : (stepAt(model, entry.phase, entry.step)?.rows.length ?? 0);
    most = Math.max(most, rows + shownFindings(model, entry).length);
  }
  return most;
}

/** The explanation panel's content: a title line and the rows. */
export function explanationContent(model, entry, decimals) {
  if (!model) return [el("p", { class: "hint", text: "Run a program to see its graph." })];
  if (!entry) return [el("p", { class: "hint", text: "Nothing to step through: the program made no values." })];
  const out = [el("p", { class: "step-title", text: stepTitle(model, entry) })];
  for (const row of explanationRows(model, entry, decimals)) {
    out.push(el("p", { class: "line" }, ...row.map((cell) => el("span", { class: cell.class, text: cell.text }))));
  }
  return out;
}

/** The same explanation as one text, for screen readers and the embed's host page. */
export function narration(model, entry, decimals) {
  if (!model || !entry) return "";
  const rows = explanationRows(model, entry, decimals).map((row) => row.map((c) => c.text).join("   "));
  return [stepTitle(model, entry), ...rows].join("\n");
}

/** The text of a source span (1-based line and columns, end exclusive), or "". */
export function spanText(source, span) {
  if (!span || !source) return "";
  const line = source.split("\n")[span.line - 1] ?? "";
  return line.slice(span.column - 1, span.end_column - 1);
}

/** The inspector for a selected value: what it is, where it comes from, its gradient sum. */
export function inspectorContent(model, id, decimals) {
  const node = model?.byId[id];
  if (!node) return [el("p", { class: "hint", text: "Click a node in the graph to see its gradient as a sum over its uses." })];
  const grad = model.numbers.grad[id];
  const own = model.structure.engine === "program"; // a learner's engine: their grad and the true one
  const number = (x) => (x === null || x === undefined ? "unknown" : formatNumber(x, decimals));
  const rows = [
    ["node", `${node.name} (#${id}, ${node.kind})`],
    ["made by", node.formula ? `${node.formula}${node.computed_at >= 0 ? `, forward step ${node.computed_at + 1}` : ""}` : "given"],
    ["data", formatNumber(model.numbers.data[id], decimals)],
    [own ? "their grad" : "grad", grad === null ? "— (a constant)" : formatNumber(grad, decimals)],
    ...(own ? [["true grad", number(model.numbers.true_grad?.[id])]] : []),
    ["topological", `${id + 1} of ${model.count} (made in this order)`],
  ];
  if (node.uses) rows.push(["", node.uses]);
  const src = spanText(model.source, node.span);
  if (src) rows.push(["source", `line ${node.span.line}: ${src}`]);
  const dl = el("dl");
  for (const [k, v] of rows) dl.append(el("dt", { text: k }), el("dd", { text: v }));
  const sum = el("p", { class: "sum", text: partsText(node.sum, model, decimals) });
  const finding = model.findings.find((f) => f.node === id);
  return finding ? [dl, sum, el("p", { class: "finding", text: findingText(finding, decimals) })] : [dl, sum];
}

/** Predict mode's question for backward step j: one field per grad the step changes. */
export function predictQuestion(model, j) {
  const step = stepAt(model, "backward", j);
  const from = model.byId[step.node];
  const asks = step.changes.filter((c) => c.value !== null && c.value !== undefined).map((c) => ({ name: model.byId[c.node].grad_name, answer: model.numbers.slots[c.value] }));
  if (j === 0) return { question: `Backward step 1: the pass starts at the output ${from.name}. What is its grad?`, asks };
  return { question: `Backward step ${j + 1}: ${from.name} sends its gradient on. What will these grads be after this step?`, asks };
}

/** While the student answers: the step's rules, without numbers. */
export function predictHint(model, j) {
  const step = stepAt(model, "backward", j);
  const title = el("p", { class: "step-title", text: `${step.title} · your turn` });
  if (j === 0) return [title, el("p", { class: "line" }, el("span", { text: "The pass starts at the output: what is its gradient with respect to itself?" }))];
  const rules = step.rows.map((row) => row.filter((cell) => cell.role === "sum" || cell.role === "rule")).filter((row) => row.length);
  return [title, ...rules.map((row) => el("p", { class: "line" }, ...row.map((cell) => el("span", { class: cell.role, text: partsText(cell.parts, model, 4) }))))];
}

const FIT_SCALES = [1, 0.9, 0.8, 0.72]; // 0.72 of the panel's type is still 12 px on a 1280 page

/** Shrink a fixed-height panel's lines until they fit it (a long label wraps a step's formulas
 * onto more lines than the panel holds, and a room cannot scroll), and, where a smaller scale
 * lets them, until no formula is broken over two lines: measured in the next frame, when the
 * browser lays the page out for painting anyway. Past the smallest scale it scrolls. The
 * panel's --fit-least (CSS) bounds the shrinking: a phone keeps its type and scrolls. */
export function fitLines(panel) {
  panel.style.setProperty("--fit", "1");
  panel.classList.remove("more-below");
  requestAnimationFrame(() => {
    const least = Number.parseFloat(getComputedStyle(panel).getPropertyValue("--fit-least")) || 0;
    let fits = null; // the largest scale at which every line shows, a formula broken or not
    for (const scale of FIT_SCALES.filter((s) => s >= least)) {
      panel.style.setProperty("--fit", String(scale));
      if (panel.scrollHeight > panel.clientHeight + 1) continue;
      if (!broken(panel)) return;
      fits ??= scale;
    }
    if (fits !== null) return void panel.style.setProperty("--fit", String(fits));
    markMore(panel);
  });
}

/** Whether a cell of the panel's lines is wrapped onto a second line. */
function broken(panel) {
  const cells = panel.querySelectorAll(".line > span");
  if (!cells.length) return false;
  const line = Number.parseFloat(getComputedStyle(cells[0]).lineHeight);
  return [...cells].some((cell) => cell.offsetHeight > 1.5 * line);
}

/** A panel whose lines do not all fit says so at its foot ("more below") until it is scrolled
 * to the end: a folded layer's step can have 28 lines where 7 show. */
function markMore(panel) {
  const update = () => panel.classList.toggle("more-below", panel.scrollHeight - panel.clientHeight - panel.scrollTop > 1);
  update();
  if (!panel.dataset.moreWired) {
    panel.dataset.moreWired = "1";
    panel.addEventListener("scroll", update, { passive: true });
  }
}
