// A line of an explanation (docs/api.md: a string is text, a number is a slot) as text: each
// slot's number read from the trace's numbers and written as the structure's `slots` says:
// plain (n), a whole number (w, relu's 1 or 0), or a factor (f), bracketed when negative or
// written with an exponent (app/numbers.py render: "(1.000e−6)²", never "1.000e−6²"). Nothing
// here writes maths of its own.

import { formatNumber } from "./format.js";

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
    const kind = kinds[p];
    const x = values[p];
    if (kind === "w") out += String(Math.trunc(x));
    else if (kind === "f") {
      const text = formatNumber(x, decimals);
      out += text.startsWith("\u2212") || text.includes("e") ? `(${text})` : text;
    } else out += formatNumber(x, decimals);
  }
  return out;
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
 * finding's own numbers, written plain. */
export function findingText(finding, decimals) {
  return finding.text.map((p) => (typeof p === "string" ? p : formatNumber(finding.numbers[p], decimals))).join("");
}
