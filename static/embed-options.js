// The embed's own URL options and the host's postMessage commands, read defensively: a bad
// value falls back to the default, an unknown message is ignored. Pure: no DOM.

import { CONFIG } from "./config.js";

export const EMBED_DEFAULTS = Object.freeze({ controls: "full", autoplay: false, theme: "auto", scale: 1 });
const CONTROLS = new Set(["full", "minimal", "none"]);
const THEMES = new Set(["auto", "light", "dark"]);

/** controls=full|minimal|none, autoplay=1, theme=light|dark|auto, scale=0.5..3. */
export function embedOptions(search) {
  const q = new URLSearchParams(search);
  const controls = q.get("controls");
  const theme = q.get("theme");
  const scale = Number(q.get("scale"));
  const autoplay = q.get("autoplay");
  return {
    controls: CONTROLS.has(controls) ? controls : EMBED_DEFAULTS.controls,
    autoplay: autoplay !== null && !["0", "false", "no"].includes(autoplay.toLowerCase()),
    theme: THEMES.has(theme) ? theme : EMBED_DEFAULTS.theme,
    scale: q.has("scale") && Number.isFinite(scale) ? Math.min(Math.max(scale, 0.5), 3) : EMBED_DEFAULTS.scale,
  };
}

/**
 * A host's message as a command: {command: "next"} | {command: "prev"} | {command: "play"} |
 * {command: "goto", step: N} (N on the whole walk, forward then backward, 0-based) |
 * {command: "goto", phase: "backward", step: N} (phase: forward, backward or update). The string "next" alone is accepted too.
 */
export function parseCommand(data) {
  const message = typeof data === "string" ? { command: data } : data;
  if (!message || typeof message !== "object") return null;
  const name = message.command;
  if (name === "next" || name === "prev" || name === "play") return { name };
  if (name !== "goto") return null;
  const step = Number(message.step);
  if (!Number.isInteger(step)) return null;
  const phase = CONFIG.phases.includes(message.phase) ? message.phase : null;
  return { name, step, phase };
}
