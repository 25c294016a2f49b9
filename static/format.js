// The one number formatter, mirrored from app/numbers.py (read its rules there): both are
// checked against the same golden table (tests/format_golden.json). Pure: no DOM.

import { CONFIG } from "./config.js";

export const MINUS = "\u2212";
const LARGE = 1e9;

function exponent(x, digits) {
  return x.toExponential(digits).replace("e+", "e");
}

/** `x` with `decimals` places; fewer, then an exponent, when it must fit `width` characters. */
export function formatNumber(x, decimals = CONFIG.decimals, width = null) {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : `${MINUS}∞`;
  let text = Math.abs(x) < LARGE ? x.toFixed(decimals) : "";
  const isExponent = !text || (x !== 0 && !/[1-9]/.test(text));
  let digits = Math.max(decimals - 1, 1);
  if (isExponent) text = exponent(x, digits); // too large, or no digit would show
  if (width !== null && text.length > width && !isExponent) {
    for (let fewer = decimals - 1; fewer >= Math.min(decimals, 2); fewer--) {
      text = x.toFixed(fewer);
      if (text.length <= width) break;
    }
    digits = 3;
  }
  while (width !== null && text.length > width && digits >= 0) text = exponent(x, digits--);
  if (text.startsWith("-") && !/[1-9]/.test(text)) text = text.slice(1); // no "-0.0000"
  return text.replaceAll("-", MINUS);
}

/** A number in a graph node: it must fit the box the server laid out for it. */
export function boxNumber(x, decimals) {
  return formatNumber(x, decimals, CONFIG.box_chars);
}

/** A number's text without the zeros that end its decimals ("0.500" → "0.5", "2.0" → "2"): an
 * axis's tick or a bin's label, written as short as it reads. */
export function trimZeros(text) {
  return text.replace(/(\.\d*?)0+$/, "$1").replace(/\.$/, "");
}

/** Parse what a person typed as a number: accepts "−3", "1e-3", " 2,5 " (comma decimal). */
export function parseNumber(text) {
  const cleaned = String(text).trim().replaceAll(MINUS, "-").replace(",", ".");
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}

/** Whether a predicted number is close enough to the true one to count as right. */
export function isClose(predicted, actual, decimals) {
  const tolerance = Math.max(1e-6, Math.abs(actual) * 1e-3, 0.5 * 10 ** -Math.min(decimals, 4));
  return Math.abs(predicted - actual) <= tolerance;
}
