// Number formatting for the graph and the explanations. Pure: no DOM.

const MINUS = "\u2212";

/** `x` with `decimals` places; "?" when not yet known. Huge or tiny numbers use exponents. */
export function formatNumber(x, decimals, { unicodeMinus = false } = {}) {
  if (x === null || x === undefined) return "?";
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : `${unicodeMinus ? MINUS : "-"}∞`;
  const abs = Math.abs(x);
  let text;
  if (abs !== 0 && (abs >= 1e9 || abs < 10 ** -decimals / 2)) {
    text = x.toExponential(Math.max(decimals - 1, 1));
  } else {
    text = x.toFixed(decimals);
  }
  if (/^-0(\.0*)?$/.test(text)) text = text.slice(1); // no "-0.0000"
  return unicodeMinus ? text.replace("-", MINUS) : text;
}

/** A number as it appears inside a formula: negative ones in parentheses. */
export function formatOperand(x, decimals) {
  const text = formatNumber(x, decimals, { unicodeMinus: true });
  return text.startsWith(MINUS) ? `(${text})` : text;
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
