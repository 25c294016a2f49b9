// The training lab: one state object, changed only through setState(), and one render().
// Training streams in over Server-Sent Events (train-sse.js); the canvases are train-plot.js.

import { countParameters, fetchTrainOptions, inspectPoint as fetchInspect, streamTraining } from "./api.js";
import { formatNumber } from "./format.js";
import { FIELDS, fieldOf, formatSeconds, requestFrom, valuesFrom } from "./train-config.js";
import { renderInspectPanel } from "./train-inspect.js";
import { drawBoundary, drawCurves, nearestPoint } from "./train-plot.js";

const $ = (id) => document.getElementById(id);
const PRESET_NAMES = {
  "micrograd-moons": "micrograd's moons",
  "xor-tanh": "XOR (seed 002)",
  "spiral-softmax": "Spiral (softmax)",
};

const state = {
  presets: [],
  preset: "micrograd-moons",
  theme: "auto",
  status: "idle", // idle | starting | training | stopping | done | stopped | error
  error: null, // {message, field}
  request: null, // the body of the running (or last) run
  job: null,
  run: null, // {points, labels, classes, bounds, parameters, config}
  history: [],
  epochs: 0,
  last: null, // the latest epoch event
  grid: null,
  gridEpoch: null,
  final: null, // the done event, or (after Stop) the last epoch with the last boundary's model
  parameterCount: null, // of the form's model, as the server counts it
  selected: null,
  inspect: null, // {status: "loading" | "ready" | "error", point, loss, url, values, message}
};

let controller = null; // aborts the running stream
let frame = 0;
const dirty = { boundary: true, curves: true };

function setState(patch, redraw = {}) {
  Object.assign(state, patch);
  Object.assign(dirty, redraw);
  if (!frame) frame = requestAnimationFrame(render);
}

// ── rendering ────────────────────────────────────────────────────────────────────────────────

function render() {
  frame = 0;
  document.documentElement.toggleAttribute("data-theme", state.theme !== "auto");
  if (state.theme !== "auto") document.documentElement.dataset.theme = state.theme;
  $("theme").value = state.theme;
  renderPresets();
  renderForm();
  renderProgress();
  renderInspect();
  if (dirty.boundary) {
    const run = state.run ?? {};
    drawBoundary($("boundary"), { ...run, grid: state.grid, selected: state.selected });
    $("boundary").dataset.gridEpoch = state.gridEpoch ?? "";
    $("boundary").dataset.bounds = run.bounds ? JSON.stringify(run.bounds) : "";
    $("boundary-epoch").textContent = state.gridEpoch ? `epoch ${state.gridEpoch}` : "";
    renderClassLegend(run.classes ?? 0);
  }
  if (dirty.curves) {
    drawCurves($("curves"), { history: state.history, epochs: state.epochs });
    const last = state.history.at(-1);
    $("curves").setAttribute(
      "aria-label",
      last
        ? `Loss and accuracy by epoch: after epoch ${last.epoch}, loss ${formatNumber(last.loss)}, accuracy ${(100 * last.accuracy).toFixed(1)}%`
        : "Loss and accuracy by epoch: no training yet",
    );
  }
  dirty.boundary = dirty.curves = false;
}

function renderPresets() {
  for (const button of $("preset-list").querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.dataset.preset === state.preset));
  }
  const preset = state.presets.find((p) => p.id === state.preset);
  $("preset-lesson").textContent = preset ? preset.title : "";
}

function renderForm() {
  const busy = ["starting", "training", "stopping"].includes(state.status);
  $("train").disabled = busy;
  $("stop").disabled = !busy || state.status === "stopping" || !state.job;
  for (const field of FIELDS) $(field).setAttribute("aria-invalid", String(state.error?.field === field));
  $("error").hidden = !state.error;
  $("error").textContent = state.error?.message ?? "";
  const count = state.parameterCount;
  $("param-count").textContent = count ? `${count.toLocaleString("en")} parameters` : "";
}

const PHASES = {
  idle: "Ready",
  starting: "Starting…",
  training: "Training",
  stopping: "Stopping…",
  done: "Finished",
  stopped: "Stopped",
  error: "Failed",
};

function renderProgress() {
  $("phase").textContent = PHASES[state.status];
  $("phase").dataset.status = state.status;
  const last = state.last;
  const progress = $("progress");
  progress.max = Math.max(state.epochs, 1);
  progress.value = last ? last.epoch : 0;
  let text = "";
  if (last) {
    text = `Epoch ${last.epoch} / ${last.epochs} · ${formatSeconds(last.elapsed)} elapsed`;
    if (state.status === "training") text += ` · about ${formatSeconds(last.eta)} left`;
    if (state.final) text = `${state.final.epochs_run} epochs in ${formatSeconds(state.final.elapsed)}`;
  }
  $("progress-text").textContent = text;
  const shown = state.final ?? last;
  $("metric-loss").textContent = shown ? formatNumber(shown.loss) : "–";
  $("metric-accuracy").textContent = shown ? `${(100 * shown.accuracy).toFixed(1)}%` : "–";
  $("metric-lr").textContent = last ? formatNumber(last.lr) : "–";
  $("metric-params").textContent = state.run ? state.run.parameters.toLocaleString("en") : "–";
  $("metric-accuracy").dataset.value = shown ? String(shown.accuracy) : "";
}

function renderClassLegend(classes) {
  const legend = $("class-legend");
  if (Number(legend.dataset.classes || 0) === classes) return;
  legend.dataset.classes = String(classes);
  legend.replaceChildren(
    ...Array.from({ length: classes }, (_, k) => {
      const key = document.createElement("span");
      key.className = `key class-${k}`;
      key.textContent = `class ${k}`;
      return key;
    }),
  );
}

function renderInspect() {
  const ready = Boolean(state.final && state.run);
  $("inspect-go").disabled = !ready;
  $("inspect-point").max = state.run ? String(state.run.points.length - 1) : "0";
  renderInspectPanel($("inspect"), { info: state.inspect, ready, run: state.run, theme: state.theme });
}

// ── training ─────────────────────────────────────────────────────────────────────────────────

async function startTraining() {
  const values = Object.fromEntries(FIELDS.map((f) => [f, $(f).value]));
  const { body, error } = requestFrom(state.preset, values);
  if (error) return setState({ error });
  controller?.abort();
  controller = new AbortController();
  const before = state.status;
  setState({ status: "starting", error: null });
  const result = await streamTraining(body, controller.signal, (name, data) => onEvent(name, data, body));
  if (result.aborted) return;
  if (!result.ok && state.status === "starting") {
    // refused before it started: the last run stays on screen, the message says why
    const { retryAfter } = result.error;
    const message = retryAfter ? `${result.error.message} (retry in ${retryAfter} s)` : result.error.message;
    return setState({ status: before === "starting" ? "idle" : before, error: { message, field: fieldOf(message) } });
  }
  if (!result.ok) return fail(result.error.message);
  if (["starting", "training"].includes(state.status)) fail("The training stream ended early.");
}

function onEvent(name, data, request) {
  if (name === "start") {
    setState(
      { status: "training", request, job: data.job, epochs: data.config.epochs, run: data, history: [], last: null,
        grid: null, gridEpoch: null, final: null, selected: null, inspect: null },
      { boundary: true, curves: true },
    );
  } else if (name === "epoch") {
    state.history.push({ epoch: data.epoch, loss: data.loss, accuracy: data.accuracy });
    setState({ last: data, epochs: data.epochs }, { curves: true });
  } else if (name === "boundary") {
    setState({ grid: data, gridEpoch: data.epoch }, { boundary: true });
  } else if (name === "done") {
    setState({ status: data.stopped ? "stopped" : "done", final: data, job: null }, { boundary: true });
  } else if (name === "error") {
    fail(data.error?.message ?? "Training failed.");
  }
}

function fail(message) {
  setState({ status: "error", job: null, error: { message, field: null } });
}

/** Stop: close the stream (the server stops the job when nobody listens). The run keeps the
 * last epoch's numbers and the model of the last boundary drawn, so points can be inspected. */
function stopTraining() {
  if (!state.job) return;
  controller?.abort();
  const { last, grid } = state;
  const final = last && grid ? { epochs_run: last.epoch, stopped: true, loss: last.loss, accuracy: last.accuracy, elapsed: last.elapsed, parameters: grid.parameters } : null;
  setState({ status: "stopped", job: null, final }, { boundary: true });
}

let countTimer = null;
/** The parameter count of the form's model, from the server (it counts them one way only). */
function refreshCount() {
  clearTimeout(countTimer);
  countTimer = setTimeout(async () => {
    const result = await countParameters({ hidden: $("hidden").value, dataset: $("dataset").value, loss: $("loss").value });
    setState({ parameterCount: result.ok ? result.body.parameters : null });
  }, 150);
}

// ── inspect one point ────────────────────────────────────────────────────────────────────────

async function inspectPoint(point) {
  if (!state.final || !state.run || point === null) return;
  setState({ selected: point, inspect: { status: "loading", point } }, { boundary: true });
  $("inspect-point").value = String(point);
  const result = await fetchInspect({ config: state.request, parameters: state.final.parameters, point });
  if (state.selected !== point) return; // another point was chosen meanwhile
  if (result.ok) setState({ inspect: { status: "ready", point, ...result.body } });
  else setState({ inspect: { status: "error", point, message: result.error.message } });
}

function canvasPoint(event) {
  if (!state.run) return null;
  const canvas = $("boundary");
  const box = canvas.getBoundingClientRect();
  const size = { width: box.width, height: box.height };
  return nearestPoint(state.run.points, state.run.bounds, size, event.clientX - box.left, event.clientY - box.top);
}

// ── set-up ───────────────────────────────────────────────────────────────────────────────────

function applyPreset(id) {
  const preset = state.presets.find((p) => p.id === id);
  if (!preset) return;
  const values = valuesFrom(preset.config);
  for (const field of FIELDS) $(field).value = values[field];
  setState({ preset: id, error: null, parameterCount: preset.parameters });
}

function syncUrl() {
  const q = new URLSearchParams();
  if (state.preset !== "micrograd-moons") q.set("preset", state.preset);
  if (state.theme !== "auto") q.set("theme", state.theme);
  const query = q.toString();
  history.replaceState(null, "", query ? `?${query}` : location.pathname);
}

async function main() {
  const q = new URLSearchParams(location.search);
  const theme = q.get("theme");
  state.theme = theme === "light" || theme === "dark" ? theme : "auto";
  const answer = await fetchTrainOptions();
  if (!answer.ok) return fail(answer.error.message);
  const options = answer.body;
  state.presets = options.presets;
  $("preset-list").replaceChildren(
    ...options.presets.map((p) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.preset = p.id;
      button.textContent = PRESET_NAMES[p.id] ?? p.id;
      button.title = p.title;
      button.addEventListener("click", () => {
        applyPreset(p.id);
        syncUrl();
      });
      return button;
    }),
  );
  $("size").max = String(options.limits.max_points);
  $("epochs").max = String(options.limits.max_epochs);
  const wanted = q.get("preset");
  applyPreset(options.presets.some((p) => p.id === wanted) ? wanted : "micrograd-moons");

  $("config").addEventListener("submit", (e) => {
    e.preventDefault();
    startTraining();
  });
  $("config").addEventListener("input", () => {
    setState({ error: null });
    refreshCount();
  });
  $("stop").addEventListener("click", stopTraining);
  $("theme").addEventListener("change", (e) => {
    setState({ theme: e.target.value }, { boundary: true, curves: true });
    syncUrl();
  });
  $("boundary").addEventListener("click", (e) => inspectPoint(canvasPoint(e)));
  $("boundary").addEventListener("mousemove", (e) => {
    const point = canvasPoint(e);
    const canvas = $("boundary");
    canvas.classList.toggle("over-point", state.final !== null && point !== null);
    if (point === null) {
      canvas.removeAttribute("title");
      return;
    }
    const [x, y] = state.run.points[point];
    const action = state.final ? " · click to inspect" : "";
    canvas.title = `Point ${point} at (${formatNumber(x, 3)}, ${formatNumber(y, 3)}), class ${state.run.labels[point]}${action}`;
  });
  $("inspect-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const n = Number($("inspect-point").value);
    if (state.run && Number.isInteger(n) && n >= 0 && n < state.run.points.length) inspectPoint(n);
  });
  new ResizeObserver(() => setState({}, { boundary: true, curves: true })).observe($("curves"));
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () =>
    setState({}, { boundary: true, curves: true }),
  );
  window.addEventListener("pagehide", () => controller?.abort());
  render();
}

main();
