// The training form's values as the API's request, and back. Pure: no DOM.

export const FIELDS = [
  "dataset", "size", "noise", "seed", "hidden", "activation", "model_seed",
  "loss", "l2", "lr", "schedule", "batch_size", "epochs",
];
const INTEGERS = new Set(["size", "seed", "model_seed", "batch_size", "epochs"]);
const NUMBERS = new Set(["noise", "l2", "lr"]);

/** "16, 16" → [16, 16]; null when it is not a list of whole numbers. */
export function parseHidden(text) {
  const parts = String(text).split(/[\s,]+/).filter(Boolean);
  if (!parts.length || parts.some((p) => !/^\d+$/.test(p))) return null;
  return parts.map(Number);
}

/** The request body for POST /api/train, or {error: {field, message}} for a value unreadable here. */
export function requestFrom(preset, values) {
  const body = { preset };
  for (const field of FIELDS) {
    const raw = values[field];
    if (field === "hidden") {
      const hidden = parseHidden(raw);
      if (!hidden) return { error: { field, message: "hidden: write layer sizes such as 16, 16" } };
      body.hidden = hidden;
    } else if (INTEGERS.has(field) || NUMBERS.has(field)) {
      const n = Number(raw);
      if (String(raw).trim() === "" || !Number.isFinite(n) || (INTEGERS.has(field) && !Number.isInteger(n))) {
        const kind = INTEGERS.has(field) ? "a whole number" : "a number";
        return { error: { field, message: `${field}: write ${kind}` } };
      }
      body[field] = n;
    } else {
      body[field] = raw;
    }
  }
  return { body };
}

/** A preset's config as form values. */
export function valuesFrom(config) {
  const values = {};
  for (const field of FIELDS) values[field] = field === "hidden" ? config.hidden.join(", ") : String(config[field]);
  return values;
}

/** The form field an error message names first ("epochs: …", "lr must be …"), if any. */
export function fieldOf(message) {
  const m = /^([a-z_]+)(?::| must)/.exec(message || "");
  return m && FIELDS.includes(m[1]) ? m[1] : null;
}

/** 75 → "1 min 15 s"; 3.2 → "3.2 s". */
export function formatSeconds(s) {
  if (!Number.isFinite(s)) return "–";
  if (s < 10) return `${s.toFixed(1)} s`;
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - 60 * m)} s`;
}
