// The page's state in its URL query, named as /api/graph.svg names it. Pure: no DOM. `values`
// is carried as the URL writes it and read only by the server (app/query.py).

import { CONFIG } from "./config.js";

export const DEFAULTS = Object.freeze({ phase: "backward", decimals: CONFIG.decimals, theme: "auto", rankdir: "auto", fold: "auto", engine: "auto" });

/** The query string for a state: defaults are left out so plain links stay short. `at`: true,
 * this step (and the node selected); "first", the first forward step; false, no step (the
 * page opens on the finished picture, an embed at the first step). */
export function stateToQuery(state, { at = true } = {}) {
  const q = new URLSearchParams();
  if (state.source !== null && state.source !== undefined) q.set("source", state.source);
  if (state.values && Object.keys(state.values).length) q.set("values", JSON.stringify(state.values));
  if (Number.isInteger(state.iteration)) q.set("iteration", String(state.iteration)); // a training loop's
  if (at) { // "first": the first forward step (a students' link: no gradient shown yet)
    q.set("phase", at === "first" ? "forward" : state.phase);
    q.set("step", String(at === "first" ? 0 : state.step));
  }
  if (state.decimals !== DEFAULTS.decimals) q.set("decimals", String(state.decimals));
  if (state.theme !== DEFAULTS.theme) q.set("theme", state.theme);
  if (state.rankdir && state.rankdir !== DEFAULTS.rankdir) q.set("rankdir", state.rankdir);
  if (state.fold && state.fold !== DEFAULTS.fold) q.set("fold", state.fold);
  if (state.engine === "gradstep") q.set("engine", "gradstep");
  if (state.over === false) q.set("over", "0");
  if (state.predict) q.set("predict", "1");
  if (state.numeric) q.set("numeric", "1");
  if (state.topo) q.set("topo", "1");
  if (state.view === "three-ways") q.set("view", "three-ways"); // the view open in the stage
  if (at === true && state.selected !== null && state.selected !== undefined) q.set("node", String(state.selected));
  return q.toString();
}

/** The query a page opens on: a short link too long to redirect to is served with its query in
 * the page (app/routes/links.py), `linked` the text of that element (null when there is none). */
export function openingQuery(linked, search) {
  return linked === null ? search : JSON.parse(linked);
}

/** The state a query describes; anything missing or malformed falls back to the default. */
export function queryToState(search) {
  const q = new URLSearchParams(search);
  const int = (name) => {
    const raw = q.get(name);
    return raw !== null && /^-?\d+$/.test(raw) ? Number(raw) : null;
  };
  const pick = (name, allowed, fallback) => (allowed.includes(q.get(name)) ? q.get(name) : fallback);
  const decimals = int("decimals");
  return {
    source: q.get("source"),
    preset: q.get("preset"),
    values: q.get("values"),
    iteration: int("iteration") !== null && int("iteration") >= 0 ? int("iteration") : null,
    phase: pick("phase", CONFIG.phases, null),
    step: int("step"),
    decimals: decimals !== null && decimals >= 0 && decimals <= CONFIG.max_decimals ? decimals : DEFAULTS.decimals,
    theme: pick("theme", ["light", "dark"], DEFAULTS.theme),
    rankdir: pick("rankdir", ["LR", "TB"], DEFAULTS.rankdir),
    fold: /^(auto|none|all|\d{1,6}(,\d{1,6})*)$/.test(q.get("fold") ?? "") ? q.get("fold") : DEFAULTS.fold,
    engine: pick("engine", ["gradstep"], DEFAULTS.engine),
    over: q.get("over") !== "0",
    predict: q.get("predict") === "1",
    numeric: q.get("numeric") === "1",
    topo: q.get("topo") === "1",
    view: pick("view", ["three-ways"], null),
    selected: int("node"),
  };
}
