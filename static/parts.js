// An explanation's parts (engine/notation.py) as text or DOM: a string is text, a number is
// formatted, a factor ([x]) is bracketed when negative or written with an exponent (app/numbers.py
// render: "(1.000e−6)²", never "1.000e−6²"). Nothing here writes maths of its own.

import { formatNumber } from "./format.js";

/** The parts as one line of text. */
export function partsText(parts, decimals) {
  let out = "";
  for (const p of parts) {
    if (typeof p === "string") out += p;
    else if (Array.isArray(p)) {
      const text = formatNumber(p[0], decimals);
      out += text.startsWith("\u2212") || text.includes("e") ? `(${text})` : text;
    } else out += formatNumber(p, decimals);
  }
  return out;
}
