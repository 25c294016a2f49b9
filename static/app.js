// gradstep's page: one state object, changed only through setState(patch), and one idempotent
// render() that makes the page show it. Stepping replays the trace already in the browser.

import { fetchGraph, fetchPresets } from "./api.js";
import { createEditor } from "./editor.js";
import { isClose, parseNumber } from "./format.js";
import { fitGraph, fitReadable, mountGraph, nodeIdOf, paintGraph, panGraph, revealNode, unmountGraph, zoomGraph } from "./graph.js";
import { buildModel, clampStep, fromTimeline, timelineLength, toTimeline, viewAt } from "./model.js";
import { buildInputs, explanationContent, inspectorContent, paintInputs, predictFields, predictHint, predictQuestion } from "./panels.js";
import { wirePresentation } from "./present.js";
import { wireShare } from "./share.js";
import { DEFAULTS, queryToState, stateToQuery } from "./url.js";

const $ = (id) => document.getElementById(id);
const VALUE_DEBOUNCE_MS = 180;
const URL_DEBOUNCE_MS = 250;
const READABLE_SCALE = 0.8; // px per point: below this, node texts are too small to read

const state = {
  source: "",
  values: null, // slider overrides {name: number}; null: the values written in the source
  phase: DEFAULTS.phase,
  step: 0,
  decimals: DEFAULTS.decimals,
  theme: DEFAULTS.theme,
  predict: false,
  numeric: false,
  topo: false,
  selected: null,
  playing: false,
  speed: 1,
  model: null,
  error: null,
  quiz: null, // predict mode: {step, asks} while the student answers
  verdict: null, // predict mode: {right, text} after checking
  presets: [],
  busy: false,
};

const ui = {
  editor: null,
  graph: null,
  view: null,
  inputRows: new Map(),
  inputsFor: null, // the model the input rows were built for
  ranges: new Map(),
  painted: {}, // keys of what the text panels show, so render() skips unchanged ones
  editingField: null,
  predictInputs: [],
};

export function setState(patch) {
  Object.assign(state, patch);
  render();
}

/* ---------- render ---------- */

function render() {
  const { model } = state;
  const root = document.documentElement;
  if ((root.dataset.theme ?? "auto") !== state.theme) {
    if (state.theme === "auto") delete root.dataset.theme;
    else root.dataset.theme = state.theme;
  }
  setValue($("decimals"), String(state.decimals));
  setValue($("theme"), state.theme);
  $("numeric").checked = state.numeric;
  $("topo").checked = state.topo;
  $("predict").checked = state.predict;
  $("play").classList.toggle("playing", state.playing);
  $("play").setAttribute("aria-label", state.playing ? "Pause (Space)" : "Play (Space)");
  renderError();
  renderPresets();
  if (!model) {
    ui.editor.mark(null, state.error?.line && state.error.source === state.source ? state.error : null);
    return;
  }

  const total = timelineLength(model);
  const position = toTimeline(model, state.phase, state.step);
  $("phase-forward").setAttribute("aria-pressed", String(state.phase === "forward"));
  $("phase-backward").setAttribute("aria-pressed", String(state.phase === "backward"));
  const scrubber = $("scrubber");
  if (scrubber.max !== String(Math.max(total - 1, 0))) scrubber.max = String(Math.max(total - 1, 0));
  setValue(scrubber, String(position));
  const phaseSteps = state.phase === "forward" ? model.forwardSteps : model.backwardSteps;
  const where = `${state.phase} ${state.step + 1}/${phaseSteps}`;
  $("position").textContent = where;
  scrubber.setAttribute("aria-valuetext", where);
  for (const id of ["first", "prev"]) $(id).disabled = position <= 0;
  for (const id of ["next", "last"]) $(id).disabled = position >= total - 1;

  // the graph: in predict mode, the step being asked about is highlighted but not yet applied
  const quiz = state.quiz;
  ui.view = quiz ? previewView(model, quiz.step) : viewAt(model, state.phase, state.step, ui.view?.count === model.count ? ui.view : null);
  ui.view.count = model.count;
  if (ui.graph) paintGraph(ui.graph, model, ui.view, state.decimals, state.selected, state.topo);

  const currentNode = ui.view.current >= 0 ? model.byId[ui.view.current] : null;
  // spans point into the program that ran: once the text is edited they would point astray
  const fresh = state.source === model.source;
  const errorFresh = state.error?.line && state.error.source === state.source;
  ui.editor.mark(fresh && !state.error ? (currentNode?.span ?? null) : null, errorFresh ? state.error : null);

  paintOnce("explanation", [model, state.phase, state.step, state.decimals, quiz?.step], () => {
    if (quiz) return predictHint(model, quiz.step);
    return explanationContent(model, state.phase, state.step, state.decimals);
  });

  // rebuilt per program (its slider ranges come from its values), kept across value changes
  const inputsKey = `${model.source}\u0000${model.trace.inputs.map((i) => i.label).join("\u0000")}`;
  if (ui.inputsFor !== inputsKey) {
    ui.inputRows = buildInputs($("inputs"), model, ui.ranges);
    ui.inputsFor = inputsKey;
  }
  paintInputs(ui.inputRows, model, ui.view, state.decimals, state.numeric, ui.editingField);
  paintOnce("inspector", [model, state.selected, state.decimals], () => inspectorContent(model, state.selected, state.decimals));
  renderPredict();
  scheduleUrl();
}

/** Write a form control's value only when it differs (each write costs a layout). */
function setValue(control, value) {
  if (control.value !== value) control.value = value;
}

/** Rebuild a small panel only when what it shows changed. */
function paintOnce(id, deps, build) {
  const old = ui.painted[id];
  if (old && old.length === deps.length && old.every((d, i) => d === deps[i])) return;
  ui.painted[id] = deps;
  $(id).replaceChildren(...build());
}

/** The state before backward step j, with step j's node and edges highlighted. */
function previewView(model, j) {
  const view = viewAt(model, "backward", j - 1);
  const step = model.trace.backward[j];
  view.current = step.node;
  view.edges = step.contributions.map((c) => `e${step.node}-${c.position}`);
  return view;
}

function renderError() {
  const box = $("error");
  const err = state.error;
  const key = err ? `${err.message}|${err.line}|${err.column}|${Boolean(state.model)}` : "";
  if (ui.painted.error === key) return;
  ui.painted.error = key;
  box.hidden = !err;
  if (!err) {
    box.replaceChildren();
    return;
  }
  const where = document.createElement("span");
  where.className = "where";
  where.textContent = err.line ? `Line ${err.line}, column ${err.column}: ` : "";
  const kept = document.createElement("span");
  kept.className = "kept";
  kept.textContent = state.model ? "The graph shows the last program that ran." : "";
  box.replaceChildren(where, err.message, kept);
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

function renderPredict() {
  const form = $("predict-form");
  const quiz = state.quiz;
  const key = quiz ? `${quiz.step}|${state.decimals}` : "";
  if (ui.painted.predict !== key) {
    ui.painted.predict = key;
    form.hidden = !quiz;
    if (quiz) {
      $("predict-question").textContent = quiz.question;
      ui.predictInputs = predictFields($("predict-fields"), quiz.asks);
      ui.predictInputs[0]?.focus();
    }
  }
  const result = $("predict-result");
  result.hidden = !state.verdict;
  result.className = `predict-result ${state.verdict?.right ? "right" : "wrong"}`;
  result.textContent = state.verdict?.text ?? "";
}

let urlTimer = null;
function scheduleUrl() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => {
    const query = stateToQuery(state);
    if (location.search.slice(1) !== query) history.replaceState(null, "", `?${query}`);
  }, URL_DEBOUNCE_MS);
}

/* ---------- actions ---------- */

function goTo(position) {
  if (!state.model) return;
  const { phase, step } = fromTimeline(state.model, position);
  setState({ phase, step, quiz: null, verdict: position === currentPosition() ? state.verdict : null });
  if (ui.graph && ui.view.current >= 0) revealNode(ui.graph, ui.view.current);
}

function currentPosition() {
  return state.model ? toTimeline(state.model, state.phase, state.step) : 0;
}

function next() {
  const { model } = state;
  if (!model) return;
  if (state.quiz) return; // answer (or skip) the question first
  const target = fromTimeline(model, currentPosition() + 1);
  const moved = toTimeline(model, target.phase, target.step) !== currentPosition();
  if (state.predict && moved && target.phase === "backward") {
    const { question, asks } = predictQuestion(model, target.step, state.decimals);
    setState({ quiz: { step: target.step, question, asks }, verdict: null, playing: false });
    stopPlaying();
    return;
  }
  goTo(currentPosition() + 1);
}

function answerQuiz(reveal) {
  const quiz = state.quiz;
  if (!quiz) return;
  let verdict = null;
  if (!reveal) {
    const parts = [];
    let right = true;
    quiz.asks.forEach((ask, i) => {
      const guess = parseNumber(ui.predictInputs[i]?.value ?? "");
      const ok = guess !== null && isClose(guess, ask.answer, state.decimals);
      right &&= ok;
      const shown = ask.answer.toFixed(state.decimals);
      parts.push(ok ? `${ask.name} = ${shown} ✓` : `${ask.name} is ${shown}, not ${guess ?? "(blank)"} ✗`);
    });
    verdict = { right, text: `${right ? "Right!" : "Not quite."} ${parts.join("; ")}` };
  }
  setState({ phase: "backward", step: quiz.step, quiz: null, verdict });
  $("next").focus();
}

let playTimer = null;
function stopPlaying() {
  clearInterval(playTimer);
  playTimer = null;
}

function togglePlay() {
  if (state.playing) {
    stopPlaying();
    setState({ playing: false });
    return;
  }
  if (!state.model) return;
  if (currentPosition() >= timelineLength(state.model) - 1) goTo(0);
  setState({ playing: true });
  startTimer();
}

function startTimer() {
  stopPlaying();
  playTimer = setInterval(() => {
    if (!state.model || currentPosition() >= timelineLength(state.model) - 1 || state.quiz) {
      stopPlaying();
      setState({ playing: false });
      return;
    }
    next();
  }, 1000 / state.speed);
}

/* ---------- running programs ---------- */

let inflight = null;
let valueTimer = null;

/** Ask the server for the graph of the current source and values. */
async function run({ keepLayout = false, keepStep = false, position = null, userAction = false } = {}) {
  inflight?.abort();
  const controller = new AbortController();
  inflight = controller;
  if (userAction) performance.mark("gradstep:run");
  const source = ui.editor.value;
  setState({ busy: true });
  $("status").textContent = "computing…";
  let result;
  try {
    result = await fetchGraph(source, state.values, controller.signal);
  } catch {
    return; // superseded by a newer request
  }
  if (inflight !== controller) return;
  inflight = null;
  if (!result.ok) {
    $("status").textContent = "";
    setState({ busy: false, error: { ...result.error, source } });
    $("error").dataset.runs = String(Number($("error").dataset.runs ?? 0) + 1);
    return;
  }
  const { trace, svg, backend, timings } = result.body;
  const model = buildModel(trace, source);
  const structureKept = keepLayout && ui.graph && state.model && ui.graph.count === model.count;
  if (!structureKept) {
    unmountGraph(ui.graph);
    ui.graph = mountGraph($("graph-view"), svg, model);
    ui.view = null;
  }
  let where;
  if (position) where = clampStep(model, position.phase ?? DEFAULTS.phase, position.step);
  else if (keepStep && state.model) where = clampStep(model, state.phase, state.step);
  else where = clampStep(model, "backward", null); // the finished picture first; Home starts over
  const selected = structureKept && state.selected !== null && state.selected < model.count ? state.selected : position?.selected ?? null;
  setState({ model, source, error: null, busy: false, quiz: null, verdict: null, ...where, selected: selected !== null && selected < model.count ? selected : null });
  if (!structureKept) fitReadable(ui.graph, ui.view.current >= 0 ? ui.view.current : model.trace.output, READABLE_SCALE);
  $("graph-view").dataset.runs = String(Number($("graph-view").dataset.runs ?? 0) + 1);
  const layout = timings.layout_cached ? "layout cached" : `laid out in ${Math.round(timings.layout_ms)} ms`;
  $("status").textContent = `${model.count} values · ${backend} · ${layout}`;
  if (userAction) {
    performance.mark("gradstep:drawn");
    performance.measure("gradstep:run-to-drawn", "gradstep:run", "gradstep:drawn");
  }
}

function runSource() {
  stopPlaying();
  ui.ranges.clear();
  setState({ values: null, playing: false, source: ui.editor.value });
  run({ userAction: true });
}

function setInputValue(label, value) {
  if (!Number.isFinite(value)) return;
  const values = { ...(state.values ?? {}), [label]: value };
  setState({ values });
  clearTimeout(valueTimer);
  valueTimer = setTimeout(() => run({ keepLayout: true, keepStep: true }), VALUE_DEBOUNCE_MS);
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
  $("run").addEventListener("click", runSource);
  $("first").addEventListener("click", () => goTo(0));
  $("prev").addEventListener("click", () => goTo(currentPosition() - 1));
  $("next").addEventListener("click", next);
  $("last").addEventListener("click", () => goTo(Number.MAX_SAFE_INTEGER));
  $("play").addEventListener("click", togglePlay);
  $("speed").addEventListener("change", (e) => {
    setState({ speed: Number(e.target.value) });
    if (state.playing) startTimer();
  });
  $("scrubber").addEventListener("input", (e) => goTo(Number(e.target.value)));
  $("phase-forward").addEventListener("click", () => state.model && goTo(0));
  $("phase-backward").addEventListener("click", () => state.model && goTo(state.model.forwardSteps));
  $("decimals").addEventListener("change", (e) => setState({ decimals: Number(e.target.value) }));
  $("theme").addEventListener("change", (e) => setState({ theme: e.target.value }));
  $("numeric").addEventListener("change", (e) => setState({ numeric: e.target.checked }));
  $("topo").addEventListener("change", (e) => setState({ topo: e.target.checked }));
  $("predict").addEventListener("change", (e) => setState({ predict: e.target.checked, quiz: null, verdict: null }));
  $("predict-form").addEventListener("submit", (e) => {
    e.preventDefault();
    answerQuiz(false);
  });
  $("predict-reveal").addEventListener("click", () => answerQuiz(true));
  // the Share dialog and presentation mode (share.js, present.js): they read the state only
  wireShare($("share"), () => (state.model ? { state: { ...state, source: state.model.source }, steps: timelineLength(state.model) } : null));
  wirePresentation($("present"), $("present-exit"), () => {
    // refit while the stage grows into (or out of) the whole screen
    const refit = () => ui.graph && fitReadable(ui.graph, ui.view?.current >= 0 ? ui.view.current : state.model.trace.output, READABLE_SCALE);
    const watcher = new ResizeObserver(refit);
    watcher.observe($("graph-view"));
    setTimeout(() => watcher.disconnect(), 1500);
  });

  const inputs = $("inputs");
  inputs.addEventListener("input", (e) => {
    const label = e.target.dataset.label;
    if (!label) return;
    ui.editingField = e.target;
    const value = e.target.type === "range" ? Number(e.target.value) : parseNumber(e.target.value);
    if (value !== null) setInputValue(label, value);
  });
  inputs.addEventListener("focusout", () => {
    ui.editingField = null;
  });

  wireGraph();
  document.addEventListener("keydown", onKey);
}

function wireGraph() {
  const view = $("graph-view");
  let drag = null;
  view.addEventListener("pointerdown", (e) => {
    if (!ui.graph || e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, moved: 0, id: e.pointerId };
  });
  view.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    drag.moved += Math.abs(dx) + Math.abs(dy);
    if (drag.moved > 4) {
      if (!view.hasPointerCapture(e.pointerId)) view.setPointerCapture(e.pointerId);
      view.classList.add("panning");
      panGraph(ui.graph, dx, dy);
    }
    drag.x = e.clientX;
    drag.y = e.clientY;
  });
  const end = (e) => {
    if (!drag) return;
    const click = drag.moved <= 4;
    drag = null;
    view.classList.remove("panning");
    if (click && e.type === "pointerup") {
      const id = nodeIdOf(e.target);
      if (id !== null) selectNode(id);
    }
  };
  view.addEventListener("pointerup", end);
  view.addEventListener("pointercancel", end);
  view.addEventListener(
    "wheel",
    (e) => {
      if (!ui.graph) return;
      e.preventDefault();
      zoomGraph(ui.graph, Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY);
    },
    { passive: false },
  );
  view.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    const id = nodeIdOf(e.target);
    if (id === null) return;
    e.preventDefault();
    e.stopPropagation();
    selectNode(id);
  });
  $("zoom-in").addEventListener("click", () => ui.graph && zoomGraph(ui.graph, 1.25));
  $("zoom-out").addEventListener("click", () => ui.graph && zoomGraph(ui.graph, 0.8));
  $("zoom-fit").addEventListener("click", () => ui.graph && fitGraph(ui.graph));
}

/** Inspect a node (or stop, on a second click); beside the graph, bring the inspector into view. */
function selectNode(id) {
  setState({ selected: state.selected === id ? null : id });
  if (state.selected !== null && !matchMedia("(max-width: 900px)").matches) {
    $("inspector").closest(".panel").scrollIntoView({ block: "nearest" });
  }
}

function onKey(e) {
  const t = e.target;
  const typing = t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || (t instanceof HTMLInputElement && t.type !== "checkbox" && t.type !== "range");
  if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
  const onButton = t instanceof HTMLButtonElement;
  const range = t instanceof HTMLInputElement && t.type === "range";
  switch (e.key) {
    case "ArrowRight":
    case "PageDown":
      if (range) return;
      e.preventDefault();
      next();
      break;
    case "ArrowLeft":
    case "PageUp":
      if (range) return;
      e.preventDefault();
      goTo(currentPosition() - 1);
      break;
    case "Home":
      e.preventDefault();
      goTo(0);
      break;
    case "End":
      e.preventDefault();
      goTo(Number.MAX_SAFE_INTEGER);
      break;
    case " ":
      if (onButton) return;
      e.preventDefault();
      togglePlay();
      break;
    case "+":
    case "=":
      if (ui.graph) zoomGraph(ui.graph, 1.25);
      break;
    case "-":
      if (ui.graph) zoomGraph(ui.graph, 0.8);
      break;
    case "0":
      if (ui.graph) fitGraph(ui.graph);
      break;
    default:
  }
}

async function presetsReady() {
  const presets = await fetchPresets();
  const list = $("preset-list");
  list.replaceChildren(
    ...presets.map((p, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = p.title;
      b.title = p.lesson;
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

async function start() {
  wire();
  const fromUrl = queryToState(location.search);
  setState({
    decimals: fromUrl.decimals,
    theme: fromUrl.theme,
    predict: fromUrl.predict,
    numeric: fromUrl.numeric,
    topo: fromUrl.topo,
    values: fromUrl.values,
  });
  const presets = presetsReady();
  let source = fromUrl.source;
  if (source === null) {
    const list = await presets;
    source = list[0]?.source ?? "a = Value(-4.0)\nb = Value(2.0)\nc = a * b\nc.backward()\n";
  }
  ui.editor.setValue(source);
  setState({ source });
  const position = fromUrl.phase || fromUrl.step !== null ? { phase: fromUrl.phase ?? DEFAULTS.phase, step: fromUrl.step, selected: fromUrl.selected } : { phase: "backward", step: null, selected: fromUrl.selected };
  await run({ position, userAction: true });
}

start();
