// gradstep's page: the stepper (stepper.js) with the editor, the examples, the inputs, the
// inspector, predict mode, Share and Present around it. One state object (the stepper's, with
// the page's fields added) and one render (the stepper's, which calls renderPage).

import { fetchClass, fetchGraph, fetchNotebookProgram, fetchPresets } from "./api.js";
import { heldClass, wireClassroom } from "./class-teacher.js";
import { createEditor } from "./editor.js";
import { el, inspectorContent } from "./explain.js";
import { parseNumber } from "./format.js";
import { buildInputs, paintInputs } from "./panels.js";
import { wirePresentation } from "./present.js";
import { wirePresentCode } from "./present-code.js";
import { wireIterations } from "./iterations.js";
import { wireShare } from "./share.js";
import { createThreeWays } from "./three-ways.js";
import { wireScanToFollow } from "./short-link.js";
import { refolded, stepCount } from "./model.js";
import { pointedFinding, renderOwn, wireOwn } from "./own.js";
import { createPredict } from "./predict.js";
import { createStepper } from "./stepper.js";
import { DEFAULTS, openingQuery, queryToState, stateToQuery } from "./url.js";

const $ = (id) => document.getElementById(id);
const VALUE_DEBOUNCE_MS = 180;
const URL_DEBOUNCE_MS = 250;

// a short link served in place (its long URL too long for an address) keeps its own address
const linked = document.getElementById("gradstep-link")?.textContent ?? null;
const fromUrl = queryToState(openingQuery(linked, location.search));
const ui = { editor: null, inputRows: new Map(), inputsFor: null, ranges: new Map(), painted: {}, editing: null, predict: null, inflight: null, layout: null, structure: null, pointed: { model: null, index: 0 } };

const stepper = createStepper($("stage"), {
  decimals: fromUrl.decimals,
  paging: () => document.body.classList.contains("presenting"), // a projector's clicker
  state: {
    source: "",
    values: null, // input values replacing the source's, {name: number}, as the server applied them
    theme: fromUrl.theme,
    rankdir: fromUrl.rankdir, // "auto": the server picks the direction that fills the view
    fold: fromUrl.fold, // which calls are boxes: auto, none, all, or call ids (app/draw/fold.py)
    over: fromUrl.over,
    drawn: null, // the direction the graph is drawn in
    predict: fromUrl.predict,
    numeric: fromUrl.numeric,
    topo: fromUrl.topo,
    view: fromUrl.view, // "three-ways": the Three ways view in the stage, in place of the graph
    engine: fromUrl.engine, // "auto": a program's own class Value builds its graph; "gradstep": ours
    iteration: fromUrl.iteration, // a training loop's iteration asked for (null: the first)
    training: null, // the answer's: {losses, iteration} of a training loop
    engines: [], // which engines can build the program's graph (the answer's)
    ownClass: "", // the program's own engine class, named on the switch (the answer's)
    console: [], // what the program printed: [line, text] pairs
    plots: [], // what it plotted: the figures the sandbox recorded (plots.js)
    error: null,
    presets: [],
    status: "",
  },
  render: renderPage,
  onQuizNext: () => (state.quiz?.class ? ui.classroom.pastQuestion() : ui.predict?.next() ?? false), // a clicker at the open question
  iterations: {
    has: (delta) => Boolean(state.training) && state.training.iteration + delta >= 0 && state.training.iteration + delta < state.training.losses.length,
    go: (delta, at) => goIteration(state.training.iteration + delta, at),
  },
  onFold: (element) => refold(element),
  onSelect: (id) => {
    if (id !== null && !matchMedia("(max-width: 900px)").matches) $("inspector").closest(".panel").scrollIntoView({ block: "nearest" });
  },
});
const { state, setState } = stepper;

/* ---------- render ---------- */

function renderPage() {
  const root = document.documentElement;
  if ((root.dataset.theme ?? "auto") !== state.theme) {
    if (state.theme === "auto") delete root.dataset.theme;
    else root.dataset.theme = state.theme;
  }
  setValue($("decimals"), String(state.decimals));
  setValue($("theme"), state.theme);
  setValue($("rankdir"), state.rankdir);
  $("rankdir").title = state.drawn ? `Drawn ${state.drawn === "LR" ? "left to right" : "top to bottom"}` : "";
  $("numeric").checked = state.numeric;
  $("over").checked = state.over;
  $("fold-controls").hidden = !state.model?.structure.calls.length;
  setValue($("fold"), ["auto", "none", "all"].includes(state.fold) ? state.fold : "custom");
  $("topo").checked = state.topo;
  $("predict").checked = state.predict;
  renderThreeWays();
  $("status").textContent = state.status;
  ui.iterations?.(state.training, state.decimals);
  renderError();
  renderPresets();
  const { model } = state;
  const errorHere = state.error?.line && state.error.source === state.source ? state.error : null;
  if (!model || !ui.editor) {
    ui.editor?.mark(null, errorHere);
    return;
  }
  // spans point into the program that ran: once the text is edited they would point astray
  const current = stepper.view?.current >= 0 ? model.byId[stepper.view.current] : null;
  const fresh = state.source === model.source && !state.error;
  const revealed = !state.predict || state.frontier >= model.backwardSteps - 1; // predict mode
  const finding = revealed ? (pointedFinding(ui.pointed, model)?.span ?? null) : null;
  ui.editor.mark(fresh ? (current?.span ?? null) : null, errorHere, fresh ? finding : null);
  ui.code?.(model.source, fresh ? (current?.span ?? null) : null, document.body.classList.contains("presenting"));

  paintOnce("notes", [model], () => model.structure.notes.map((note) => el("li", { text: note })));
  $("notes").hidden = !model.structure.notes.length;

  const inputsKey = `${model.source}\u0000${model.structure.inputs.map((i) => i.name).join("\u0000")}`;
  if (ui.inputsFor !== inputsKey) {
    ui.inputRows = buildInputs($("inputs"), model, ui.ranges);
    ui.inputsFor = inputsKey;
  }
  renderOwn(state, ui.pointed, paintOnce, revealed);
  paintInputs(ui.inputRows, model, stepper.view, state.decimals, state.numeric && revealed, ui.editing);
  const shown = state.selected !== null && stepper.view.gradState[state.selected] !== 1;
  paintOnce("inspector", [model, state.selected, state.decimals, revealed || shown], () =>
    revealed || shown ? inspectorContent(model, state.selected, state.decimals) : [el("p", { class: "hint", text: "Predict mode: this node's grad is not revealed yet." })],
  );
  ui.predict?.render();
  ui.classroom?.sync();
  scheduleUrl();
}

/** The Three ways view, open or not: it asks for the program that ran (the editor's text once
 * it has run), at the values shown. */
function renderThreeWays() {
  const open = state.view === "three-ways";
  $("three-ways-toggle").setAttribute("aria-pressed", String(open));
  $("three-ways").hidden = !open;
  $("stage").classList.toggle("ways-open", open);
  const { model } = state;
  if (!open) ui.ways?.show(null);
  else if (!model) ui.ways?.waiting(state.error?.message ?? null);
  else ui.ways?.show({ source: model.source, values: state.values, engine: state.engine, iteration: state.iteration }, state.decimals);
}

/** Write a form control's value only when it differs (each write costs a layout). */
function setValue(control, value) {
  if (control.value !== value) control.value = value;
}

function paintOnce(id, deps, build) {
  const old = ui.painted[id];
  if (old && old.length === deps.length && old.every((d, i) => d === deps[i])) return;
  ui.painted[id] = deps;
  $(id).replaceChildren(...build());
}

function renderError() {
  const err = state.error;
  const key = err ? `${err.message}|${err.line}|${err.column}|${Boolean(state.model)}` : "";
  if (ui.painted.error === key) return;
  ui.painted.error = key;
  const box = $("error");
  const stale = $("stale");
  box.hidden = !err;
  if (!err) {
    stale.hidden = true;
    $("graph-wrap").classList.remove("stale-graph");
    return box.replaceChildren();
  }
  const where = err.line ? `Line ${err.line}, column ${err.column}: ` : "";
  const kept = state.model ? "The graph shows the last program that ran." : "";
  box.replaceChildren(el("span", { class: "where", text: where }), err.message, el("span", { class: "kept", text: kept }));
  // the stage says it too, over the graph it greys out: on a projector, or with the side
  // panel scrolled, the error is not missed and the old graph not taken for this program's
  stale.replaceChildren(el("span", { class: "where", text: err.line ? `Not drawn: line ${err.line}: ` : "Not drawn: " }), err.message, el("span", { class: "kept", text: kept }));
  stale.hidden = false;
  $("graph-wrap").classList.add("stale-graph");
  box.scrollIntoView({ block: "nearest" });
}

function renderPresets() {
  const key = `${state.presets.length}|${state.source}`;
  if (ui.painted.presets === key) return;
  ui.painted.presets = key;
  let lesson = "";
  for (const button of $("preset-list").children) {
    const preset = state.presets[Number(button.dataset.index)];
    const active = preset.source.trim() === state.source.trim();
    button.setAttribute("aria-pressed", String(active));
    if (active) lesson = preset.lesson;
  }
  $("preset-lesson").textContent = lesson;
}

let urlTimer = null;
function scheduleUrl() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => {
    const code = ui.classroom?.running() ? heldClass()?.code : null; // a reload goes on with the class
    const query = stateToQuery(state) + (code ? `&class=${code}` : "");
    if (linked === null && location.search.slice(1) !== query) history.replaceState(null, "", `?${query}`);
  }, URL_DEBOUNCE_MS);
}

/* ---------- running programs ---------- */

/** Ask the server for the graph of the editor's program. */
async function run({ keepLayout = false, position = null, focusGraph = false, values = state.values } = {}) {
  ui.inflight?.abort();
  const controller = new AbortController();
  ui.inflight = controller;
  const source = ui.editor.value;
  // the Three ways view hides the graph: then the stage's box stands in for the graph's
  const graphBox = $("graph-view").getBoundingClientRect();
  const view = graphBox.width > 0 ? graphBox : $("stage").getBoundingClientRect();
  setState({ status: "computing…" });
  let result;
  try {
    // a value change names the layout on show and the structure held: drawn the same, the
    // answer leaves out its SVG; of the same structure, it sends the numbers alone
    const shown = keepLayout ? ui.layout : null;
    const held = keepLayout ? ui.structure?.digest : null;
    result = await fetchGraph({ source, values, rankdir: state.rankdir, aspect: view.width / Math.max(view.height, 1), fold: state.fold, layout: shown, structure: held, engine: state.engine, iteration: state.iteration }, controller.signal);
  } catch {
    return; // superseded by a newer request
  }
  if (ui.inflight !== controller) return;
  ui.inflight = null;
  if (!result.ok) {
    // what the program printed before its error is shown, as a notebook shows it
    setState({ status: "", error: { ...result.error, source }, ...(result.error.console ? { console: result.error.console } : {}) });
    $("error").dataset.runs = String(Number($("error").dataset.runs ?? 0) + 1);
    return;
  }
  const { svg, backend, timings, rankdir, digest, numbers } = result.body;
  ui.layout = result.body.layout;
  // the server says whether the structure is the one held (none sent: keep it) and whether the
  // graph is drawn as the one shown (no SVG sent: keep it)
  const structure = result.body.structure ?? ui.structure.structure;
  ui.structure = { digest, structure };
  const training = result.body.training;
  const iteration = training ? training.iteration : null;
  const otherIteration = iteration !== (state.training?.iteration ?? null); // predict mode's answers were another's
  setState({ source, values: result.body.values, error: null, drawn: rankdir, console: result.body.console, plots: result.body.plots, engines: result.body.engines, ownClass: result.body.own_class, training, iteration: state.iteration === null ? null : iteration });
  stepper.load({ structure, numbers }, svg, source, { keepLayout: svg === null, position, fold: result.body.fold });
  if (otherIteration && state.predict && state.frontier >= 0) { // predict mode asks this iteration's grads afresh
    setState({ frontier: -1 });
    stepper.goTo(stepper.position());
  }
  const layout = timings.layout_cached ? "layout cached" : `laid out in ${Math.round(timings.layout_ms)} ms`;
  setState({ status: `${structure.nodes.length} values · ${backend} · ${layout}` });
  $("graph-view").dataset.runs = String(Number($("graph-view").dataset.runs ?? 0) + 1);
  if (focusGraph) $("graph-view").focus({ preventScroll: true }); // the clicker steps at once
}

/** Show iteration k of a training loop at its "first" step, its "last" or the "same" one. */
function goIteration(k, at) {
  if (!state.training) return;
  const iteration = Math.min(Math.max(Math.trunc(k), 0), state.training.losses.length - 1);
  const position = at === "first" ? { phase: "forward", step: 0 } : at === "last" ? "end" : { phase: state.phase, step: state.step };
  setState({ iteration: iteration === 0 ? null : iteration });
  run({ keepLayout: true, position });
}

/** Open a folded call's box ("c3"), or fold an open call ("k3", its cluster's frame). */
function refold(element) {
  const fold = state.model ? refolded(state.model, element) : null;
  if (fold === null) return;
  setState({ fold });
  run({ position: { phase: state.phase, step: state.step } });
}

let valueTimer = null; // a typed value's run, debounced

function runSource() {
  clearTimeout(valueTimer); // a value typed just before is the old program's: its run would follow this one
  stepper.stop();
  ui.ranges.clear();
  setState({ source: ui.editor.value, iteration: null }); // a training loop opens on its first iteration
  run({ values: null, focusGraph: true });
}

/** A file opened from the disk: a notebook's code cells (the server reads the notebook), or a
 * Python file's text, put in the editor and run. */
async function openFile(file) {
  let source;
  try {
    source = await file.text();
  } catch {
    setState({ error: { message: `${file.name} could not be read.`, kind: "file", source: ui.editor.value } });
    return;
  }
  if (/\.ipynb$/i.test(file.name)) {
    let notebook = null;
    try {
      notebook = JSON.parse(source);
    } catch {
      notebook = null;
    }
    const got = await fetchNotebookProgram(notebook);
    if (!got.ok) {
      setState({ error: { ...got.error, source: ui.editor.value } });
      return;
    }
    source = got.body.source;
  }
  ui.editor.setValue(source);
  runSource();
}

function setInputValue(name, value) {
  if (!Number.isFinite(value)) return;
  setState({ values: { ...(state.values ?? {}), [name]: value } });
  clearTimeout(valueTimer);
  valueTimer = setTimeout(() => run({ keepLayout: true, position: { phase: state.phase, step: state.step } }), VALUE_DEBOUNCE_MS);
}

/* ---------- wiring ---------- */

function wire() {
  ui.editor = createEditor({
    textarea: $("source"),
    gutter: $("gutter"),
    highlight: $("highlight"),
    onRun: runSource,
    onInput: (text) => setState({ source: text }),
  });
  ui.predict = createPredict(stepper);
  ui.iterations = wireIterations($("iterations"), (k) => goIteration(k, "same"));
  $("run").addEventListener("click", runSource);
  $("open").addEventListener("click", () => $("open-file").click());
  $("open-file").addEventListener("change", (e) => {
    const [file] = e.target.files;
    e.target.value = ""; // the same file opened again is a change too
    if (file) openFile(file);
  });
  $("speed").addEventListener("change", (e) => stepper.setSpeed(Number(e.target.value)));
  $("decimals").addEventListener("change", (e) => setState({ decimals: Number(e.target.value) }));
  $("theme").addEventListener("change", (e) => setState({ theme: e.target.value }));
  $("rankdir").addEventListener("change", (e) => {
    setState({ rankdir: e.target.value });
    run({ position: { phase: state.phase, step: state.step } });
  });
  $("numeric").addEventListener("change", (e) => setState({ numeric: e.target.checked }));
  $("over").addEventListener("change", (e) => stepper.setOver(e.target.checked));
  $("fold").addEventListener("change", (e) => {
    if (e.target.value === "custom") return;
    setState({ fold: e.target.value });
    run({ position: { phase: state.phase, step: state.step } });
  });
  $("topo").addEventListener("change", (e) => setState({ topo: e.target.checked }));
  ui.ways = createThreeWays($("three-ways"));
  $("three-ways-toggle").addEventListener("click", () => setState({ view: state.view === "three-ways" ? null : "three-ways" }));
  for (const phase of ["phase-forward", "phase-backward"]) $(phase).addEventListener("click", () => setState({ view: null })); // back to the graph
  $("zoom-in").addEventListener("click", () => stepper.zoom(1.25));
  $("zoom-out").addEventListener("click", () => stepper.zoom(0.8));
  $("zoom-fit").addEventListener("click", () => stepper.whole());
  const view = () => (state.model ? { ...state, source: state.model.source } : null);
  wireShare($("share"), () => {
    const { model } = state;
    if (!model) return null;
    const steps = model.forwardSteps + model.backwardSteps + stepCount(model, "update");
    return { state: view(), steps, frames: { zip: steps, gif: model.backwardSteps } };
  });
  ui.code = wirePresentCode($("present-code"), () => renderPage());
  const { presenting } = wirePresentation($("present"), $("present-exit"), (entering) => {
    // a training loop is taught from its first step: the finished picture it opened on shows
    // every grad of the first iteration before its first forward step
    if (entering && state.training && stepper.opening() === "finished") stepper.next();
    renderPage(); // the program's lines under the explanation, in Present alone
    // refit while the stage grows into (or out of) the whole screen
    const watcher = new ResizeObserver(() => stepper.fit());
    watcher.observe($("graph-view"));
    setTimeout(() => watcher.disconnect(), 1500);
    $("graph-view").focus({ preventScroll: true });
  });
  wireScanToFollow($("scan-panel"), $("present-qr"), presenting, view);
  ui.classroom = wireClassroom({ stepper, presenting, view: () => {
    const { model } = state;
    if (!model) return null;
    const values = state.values ?? {};
    const position = { phase: state.phase, step: state.step, folded: model.fold?.folded ?? [], values, iteration: state.iteration };
    return { source: model.source, values, position };
  } });
  const inputs = $("inputs");
  inputs.addEventListener("input", (e) => {
    const name = e.target.dataset.label;
    if (!name) return;
    ui.editing = e.target;
    const value = e.target.type === "range" ? Number(e.target.value) : parseNumber(e.target.value);
    if (value !== null) setInputValue(name, value);
  });
  inputs.addEventListener("focusout", () => {
    ui.editing = null;
  });
  document.addEventListener("keydown", stepper.onKey);
  wireOwn(stepper, ui.pointed, ui.editor, (engine) => {
    setState({ engine }); // the other engine's graph of the same iteration
    run();
  });
}

async function loadPresets() {
  const presets = await fetchPresets();
  $("preset-list").replaceChildren(
    ...presets.map((p, i) => {
      const b = el("button", { type: "button", title: p.lesson, text: p.title });
      b.dataset.index = String(i);
      b.addEventListener("click", () => {
        ui.editor.setValue(p.source);
        runSource();
      });
      return b;
    }),
  );
  ui.painted.presets = null;
  setState({ presets });
  return presets;
}

/** The class this tab teaches, when the URL names it (?class=, written while it runs, or by the
 * teacher's link /c/{code}#key=…): its program at its position, then the class goes on. */
async function resumeClass() {
  const held = heldClass();
  const asked = new URLSearchParams(location.search).get("class");
  if (!held || !asked || asked.toLowerCase() !== held.code) return false;
  const got = await fetchClass(held.code);
  if (!got.ok) {
    sessionStorage.removeItem("gradstep-teacher");
    setState({ status: `Class ${held.code}: ${got.error.message}` });
    return false;
  }
  const { program, position } = got.body;
  ui.editor.setValue(program.source);
  const fold = position.folded.length ? position.folded.join(",") : state.fold;
  setState({ source: program.source, fold, iteration: position.iteration });
  await run({ position: { phase: position.phase, step: position.step }, values: { ...program.values, ...position.values } });
  ui.classroom.resume(held, got.body);
  return true;
}

async function start() {
  wire();
  if (await resumeClass()) return void loadPresets();
  const presets = loadPresets();
  let source = fromUrl.source;
  if (source === null) {
    const list = await presets;
    source = (list.find((p) => p.id === fromUrl.preset) ?? list[0])?.source ?? "a = Value(-4.0)\nb = Value(2.0)\nc = a * b\nc.backward()\n";
  }
  ui.editor.setValue(source);
  setState({ source, selected: fromUrl.selected });
  const position = fromUrl.phase || fromUrl.step !== null ? { phase: fromUrl.phase ?? DEFAULTS.phase, step: fromUrl.step } : null;
  await run({ position, values: fromUrl.values });
}

start();
