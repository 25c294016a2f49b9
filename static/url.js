// The whole page state in the URL query, named as /api/graph.svg names it. Pure: no DOM.

export const DEFAULTS = Object.freeze({
  phase: "backward",
  decimals: 4,
  theme: "auto",
});

/** `values` as JSON ({"a": -4}); a shared link stays readable and the API parses it as is. */
export function encodeValues(values) {
  return JSON.stringify(values);
}

/** Accepts JSON ({"a": -4}) or pairs (a=-4,b=2 or a:-4). Unreadable parts are ignored. */
export function decodeValues(text) {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return numbersOnly(parsed);
  } catch {
    // not JSON: fall through to pairs
  }
  const values = {};
  for (const pair of text.split(",")) {
    const m = pair.trim().match(/^([A-Za-z_]\w*)\s*[=:]\s*(\S+)$/);
    if (m && Number.isFinite(Number(m[2]))) values[m[1]] = Number(m[2]);
  }
  return Object.keys(values).length ? values : null;
}

function numbersOnly(obj) {
  const out = {};
  for (const [k, v] of Object.entries(obj)) if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
  return Object.keys(out).length ? out : null;
}

/** The query string for a state: defaults are left out so plain links stay short. */
export function stateToQuery(state) {
  const q = new URLSearchParams();
  if (state.source !== null && state.source !== undefined) q.set("source", state.source);
  if (state.values && Object.keys(state.values).length) q.set("values", encodeValues(state.values));
  q.set("phase", state.phase);
  q.set("step", String(state.step));
  if (state.decimals !== DEFAULTS.decimals) q.set("decimals", String(state.decimals));
  if (state.theme !== DEFAULTS.theme) q.set("theme", state.theme);
  if (state.predict) q.set("predict", "1");
  if (state.numeric) q.set("numeric", "1");
  if (state.topo) q.set("topo", "1");
  if (state.selected !== null && state.selected !== undefined) q.set("node", String(state.selected));
  return q.toString();
}

/** The state a query describes; anything missing or malformed falls back to the default. */
export function queryToState(search) {
  const q = new URLSearchParams(search);
  const int = (name) => {
    const raw = q.get(name);
    return raw !== null && /^-?\d+$/.test(raw) ? Number(raw) : null;
  };
  const phase = q.get("phase");
  const theme = q.get("theme");
  const decimals = int("decimals");
  return {
    source: q.get("source"),
    values: decodeValues(q.get("values")),
    phase: phase === "forward" || phase === "backward" ? phase : null,
    step: int("step"),
    decimals: decimals !== null && decimals >= 0 && decimals <= 6 ? decimals : DEFAULTS.decimals,
    theme: theme === "light" || theme === "dark" ? theme : DEFAULTS.theme,
    predict: q.get("predict") === "1",
    numeric: q.get("numeric") === "1",
    topo: q.get("topo") === "1",
    selected: int("node"),
  };
}
