// A line of an explanation (docs/api.md: a string is text, a number is a slot) as text: each
// slot's number read from the trace's numbers and written as the structure's `slots` says:
// plain (n), a whole number (w, relu's 1 or 0), or a factor (f), bracketed when negative or
// written with an exponent (app/numbers.py render: "(1.000e−6)²", never "1.000e−6²"); and a
// relation, "=" or "≈" as the numbers shown reproduce the result shown or not. Nothing here
// writes maths of its own beyond that check.

import { MINUS, formatNumber } from "./format.js";

/** The line as text. */
export function partsText(parts, model, decimals) {
  const kinds = model.structure.slots;
  const values = model.numbers.slots;
  let out = "";
  for (const p of parts) {
    if (typeof p === "string") {
      out += p;
      continue;
    }
    if (typeof p === "object") {
      out += relationText(p, kinds, values, decimals);
      continue;
    }
    const kind = kinds[p];
    const x = values[p];
    if (kind === "w") out += String(Math.trunc(x));
    else if (kind === "f") {
      const text = formatNumber(x, decimals);
      out += text.startsWith(MINUS) || text.includes("e") ? `(${text})` : text;
    } else out += formatNumber(x, decimals);
  }
  return out;
}

const COMBINE = { add: (a, b) => a + b, sub: (a, b) => a - b, mul: (a, b) => a * b, div: (a, b) => a / b };

/** A relation's sign (engine.notation.Relation): its exact text when the operands as shown,
 * combined left to right, round to the result as shown; else its inexact text, "≈" (app/numbers.py
 * relation_text: the golden table's relations). */
export function relationText(r, kinds, values, decimals) {
  const shown = r.of.map((s) => (kinds[s] === "w" ? Math.trunc(values[s]) : Number(formatNumber(values[s], decimals).replaceAll(MINUS, "-"))));
  const total = shown.slice(1).reduce(COMBINE[r.op], shown[0]);
  const exact = Number.isFinite(total) && formatNumber(total, decimals) === formatNumber(values[r.to], decimals);
  return exact ? r.exact : r.inexact;
}

/** A row of cells as the texts of its columns, each with its role: a rule's value ("= 0.5000")
 * continues the rule, in its column (app/numbers.py row_cells). */
export function rowCells(row, model, decimals) {
  const cells = [];
  for (const cell of row) {
    const text = partsText(cell.parts, model, decimals);
    if (cell.role === "value" && cells.length) cells.at(-1).text += ` ${text}`;
    else cells.push({ role: cell.role, text });
  }
  return cells;
}

/** A finding's sentence (numbers.findings): a string part is text, an integer indexes the
 * finding's own numbers, written plain, an object is a relation between them. */
export function findingText(finding, decimals) {
  const plain = "n".repeat(finding.numbers.length);
  const part = (p) => (typeof p === "string" ? p : typeof p === "object" ? relationText(p, plain, finding.numbers, decimals) : formatNumber(finding.numbers[p], decimals));
  return finding.text.map(part).join("");
}
