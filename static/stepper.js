// The stepper: one state object, changed only through setState(patch), and one idempotent
// render() that makes the graph, the explanation and the transport show it. The page, the
// embed, the offline file and the notebook widget all use this one; the page adds its panels
// to the same state and the same render (options.render). Stepping never asks the server:
// the trace has every step.

import { explanationContent, fitLines, narration, predictHint, predictQuestion, tallestExplanation } from "./explain.js";
import { wireGraphInput } from "./graph-input.js";
import { mountGraph, nodeIdOf, paintGraph, unmountGraph } from "./graph.js";
import { onStepKey } from "./keys.js";
import { buildModel, clampStep, drawnEdge, entryAt, fromTimeline, setStepOver, stepAt, stepCount, timelineLength, toTimeline, viewAt } from "./model.js";
import { fitGraph, fitReadable, panGraph, revealNode, zoomGraph } from "./view.js";

const STEP_MS = 1000; // per step at speed 1: time to read one line of arithmetic

/**
 * Mount a stepper in `root` (it finds its parts by data-part: graph, explanation, first, prev,
 * play, next, last, again, scrubber, position, phase-forward, phase-backward, live).
 * options: {decimals, state: extra initial state, render(state, stepper), onStep(info), release(reason),
 * onQuizNext(): a clicker's Page Down at predict mode's open question (the page checks or reveals),
 * iterations: a training loop's iterations, {has(delta), go(delta, at)}: whether the iteration
 * delta away exists, and go there ("first" step, "last" step or the "same" step), paging():
 * whether a clicker's Page Down pages an explanation that overflows before stepping, limit():
 * the last position that may be shown, or null (a live class's students roam up to its step)}.
 */
export function createStepper(root, options = {}) {
  const part = (name) => root.querySelector(`[data-part="${name}"]`);
  const state = {
    model: null,
    phase: "backward",
    step: 0,
    decimals: options.decimals ?? 4,
    playing: false,
    speed: 1,
    selected: null,
    predict: false,
    over: true, // step over a folded call in one step (predict mode steps into everything)
    frontier: -1, // predict mode: the last backward step the student has answered
    quiz: null, // predict mode: {step, question, asks} while the student answers (class: true,
    // a live class's question: its step is shown as before it, until the answers are revealed)
    verdict: null, // predict mode: {right, text} after an answer
    score: { right: 0, asked: 0, skipped: 0 },
    ...options.state,
  };
  // view: "auto" (readable fit, follows the frame's size), "whole" (Fit), "moved" (zoomed or panned)
  // opening: "finished" while the graph shows the finished picture it opened on, "started" at
  // the first step the next press took it to from there, else null
  const ui = { graph: null, view: null, painted: {}, timer: null, mode: "auto", opening: null };

  function setState(patch) {
    Object.assign(state, patch);
    render();
  }

  function position() {
    return state.model ? toTimeline(state.model, state.phase, state.step) : 0;
  }

  /** The last position predict mode lets the student see: forward steps, then answered ones
   * (-1: not even the seed). */
  function reachable() {
    const { model } = state;
    if (!model) return 0;
    if (!state.predict) return timelineLength(model) - 1;
    if (state.frontier >= model.backwardSteps - 1) return timelineLength(model) - 1; // all answered
    if (state.frontier >= 0) return toTimeline(model, "backward", state.frontier);
    return model.backwardSteps ? toTimeline(model, "backward", 0) - 1 : timelineLength(model) - 1;
  }

  function render() {
    const { model } = state;
    const total = model ? timelineLength(model) : 0;
    const at = position();
    const scrubber = part("scrubber");
    if (scrubber) {
      scrubber.max = String(Math.max(total - 1, 0));
      if (scrubber.value !== String(at)) scrubber.value = String(at);
    }
    const steps = model ? stepCount(model, state.phase) : 0;
    let where = model && steps > 0 ? `${state.phase} ${state.step + 1}/${steps}` : "–";
    if (model && state.phase === "update") where = "update";
    if (part("position")) part("position").textContent = where;
    scrubber?.setAttribute("aria-valuetext", where);
    for (const name of ["first", "prev"]) if (part(name)) part(name).disabled = !model || at <= 0;
    const wall = atWall() && total > 1;
    if (part("next")) part("next").disabled = !model || total === 0 || wall;
    if (part("again")) { // in the place of Next and Last, which have nowhere to go
      part("again").hidden = !wall;
      for (const name of ["next", "last"]) if (part(name)) part(name).hidden = wall;
    }
    if (part("last")) part("last").disabled = !model || at >= total - 1;
    part("phase-forward")?.setAttribute("aria-pressed", String(state.phase === "forward"));
    part("phase-backward")?.setAttribute("aria-pressed", String(state.phase === "backward"));
    const play = part("play");
    if (play) {
      play.disabled = !model || total === 0;
      play.classList.toggle("playing", state.playing);
      play.setAttribute("aria-label", state.playing ? "Pause (Space)" : "Play (Space)");
    }
    if (model && ui.graph) {
      const quiz = state.quiz;
      ui.view = quiz ? previewView(model, quiz.step) : viewAt(model, state.phase, state.step, ui.view);
      paintGraph(ui.graph, model, ui.view, state.decimals, state.selected, state.topo ?? false);
      const entry = entryAt(model, at);
      if (ui.painted.walk !== model.walk || ui.painted.predicting !== state.predict) {
        // a new program, or predict mode (it steps into calls; its question needs 3 rows)
        Object.assign(ui.painted, { walk: model.walk, predicting: state.predict });
        const rows = Math.max(tallestExplanation(model), state.predict ? 3 : 1);
        part("explanation")?.parentElement.style.setProperty("--explain-rows", String(rows));
      }
      const rebuilt = paintOnce("explanation", [model, entry, state.decimals, quiz?.step], () =>
        quiz ? predictHint(model, quiz.step) : explanationContent(model, entry, state.decimals),
      );
      if (rebuilt) {
        part("explanation").scrollTop = 0; // a new step is read from its first line
        fitLines(part("explanation"));
      }
      const live = part("live");
      if (live && ui.painted.live !== `${at}|${state.decimals}|${quiz?.step}`) {
        ui.painted.live = `${at}|${state.decimals}|${quiz?.step}`;
        live.textContent = quiz ? quiz.question : narration(model, entry, state.decimals);
      }
    }
    options.render?.(state, api);
  }

  /** Rebuild a small panel only when what it shows changed; true when it did. */
  function paintOnce(name, deps, build) {
    const el = part(name);
    if (!el) return false;
    const old = ui.painted[name];
    if (old && old.length === deps.length && old.every((d, i) => d === deps[i])) return false;
    ui.painted[name] = deps;
    el.replaceChildren(...build());
    return true;
  }

  /** The state before backward step j, with step j's node and edges highlighted. */
  function previewView(model, j) {
    const view = viewAt(model, "backward", Math.max(j - 1, 0));
    if (j === 0) view.gradState.fill(1, 0); // before the seed nothing is known: pending
    const step = stepAt(model, "backward", j);
    view.current = step.node;
    view.edges = step.edges.map(([target, position]) => drawnEdge(model, `e${target}-${position}`));
    return view;
  }

  function info() {
    const entry = state.model ? entryAt(state.model, position()) : null;
    return { position: position(), total: state.model ? timelineLength(state.model) : 0, phase: state.phase, step: state.step, playing: state.playing, explanation: entry ? narration(state.model, entry, state.decimals) : "" };
  }

  /** Go to a position on the walk; predict mode stops at the first step not yet answered and
   * asks about it. Returns whether the position moved. */
  function goTo(target) {
    const { model } = state;
    if (!model) return false;
    const last = timelineLength(model) - 1;
    let p = Math.min(Math.max(Math.trunc(Number.isFinite(target) ? target : 0), 0), last, options.limit?.() ?? last);
    let quiz = null;
    if (p > reachable()) {
      const next = state.frontier + 1; // the first backward step not yet answered
      p = Math.max(reachable(), 0);
      quiz = { step: next, ...predictQuestion(model, next) };
    }
    const moved = p !== position();
    ui.opening = null; // any move asked for, even to where it is (End on the finished picture)
    setState({ ...fromTimeline(model, p), quiz, verdict: moved ? null : state.verdict });
    if (quiz) stop();
    // in sight: the step's node, or at the update step the first value it changed
    const focus = ui.view?.current >= 0 ? ui.view.current : (ui.view?.updated?.values().next().value ?? -1);
    if (ui.graph && focus >= 0) revealNode(ui.graph, focus);
    if (moved) options.onStep?.(info());
    return moved;
  }

  /** At the end of the walk after stepping there: a wall (nothing a clicker sends loses the
   * finished graph; "Start again" and Home go back). */
  const atEnd = () => Boolean(state.model) && !ui.opening && position() >= timelineLength(state.model) - 1;
  const atWall = () => atEnd() && !options.iterations?.has(1); // a training loop goes on to its next iteration

  /** Next step. The finished picture a graph opens on, before any step, is not the end of a
   * walk: the next press starts the walk, and Page Up from its first step comes back to it. At
   * predict mode's open question, only a clicker's Page Down goes on (the page checks what was
   * typed, or shows the step): the arrows and Next wait for an answer. */
  function next({ clicker = false } = {}) {
    if (state.quiz) return clicker || state.quiz.class ? options.onQuizNext?.() ?? false : false; // a clicker never sticks
    if (clicker && page(1)) return true;
    if (!state.model || atWall()) return false;
    if (atEnd()) return options.iterations.go(1, "first"), true;
    if (ui.opening !== "finished") return goTo(position() + 1);
    const moved = goTo(0);
    ui.opening = "started";
    return moved;
  }

  /** A clicker cannot scroll: where the page says so (`options.paging()`: Present mode, a slide's
   * embed), its Page Down at an explanation with lines hidden below (a gradient step's 41
   * changes) shows the next screenful of them, and steps once the last is in sight; its Page Up
   * scrolls back up before stepping back. */
  function page(direction) {
    const panel = part("explanation");
    if (!panel || !options.paging?.() || ui.opening === "finished") return false;
    const left = direction > 0 ? panel.scrollHeight - panel.clientHeight - panel.scrollTop : panel.scrollTop;
    if (left <= 1) return false;
    panel.scrollBy({ top: direction * Math.max(panel.clientHeight * 0.85, 1), behavior: "instant" });
    return true;
  }

  function prev({ clicker = false } = {}) {
    if (state.quiz && !state.quiz.class) return setState({ quiz: null }), true;
    if (clicker && page(-1)) return true;
    if (state.quiz) setState({ quiz: null }); // a live class's question: back a step, as ever
    if (position() <= 0 && ui.opening !== "started" && options.iterations?.has(-1)) return options.iterations.go(-1, "last"), true;
    if (ui.opening !== "started" || position() > 0) return goTo(position() - 1);
    const moved = goTo(Number.MAX_SAFE_INTEGER); // back to the finished picture it opened on
    ui.opening = "finished";
    render();
    return moved;
  }

  /** The student's answers to the open question; check(ask, i) says {ok, text} for each.
   * Without check ("just show me"), the step is shown, counted as shown without an answer. */
  function answer(check = null) {
    const quiz = state.quiz;
    if (!quiz) return;
    let verdict = null;
    const score = { ...state.score };
    if (!check) score.skipped += 1; // shown without an answer
    else {
      const parts = quiz.asks.map(check);
      const right = parts.every((p) => p.ok);
      score.right += right ? 1 : 0;
      score.asked += 1;
      verdict = { right, text: `${right ? "Right!" : "Not quite."} ${parts.map((p) => p.text).join("; ")}` };
    }
    setState({ frontier: Math.max(state.frontier, quiz.step), score, quiz: null });
    goTo(toTimeline(state.model, "backward", quiz.step));
    setState({ verdict });
  }

  function stop() {
    clearInterval(ui.timer);
    ui.timer = null;
    if (state.playing) setState({ playing: false });
  }

  function togglePlay() {
    if (state.playing) return stop();
    if (!state.model) return;
    if (position() >= timelineLength(state.model) - 1) goTo(0);
    setState({ playing: true });
    startTimer();
  }

  function startTimer() {
    clearInterval(ui.timer);
    ui.timer = setInterval(() => {
      if (!state.model || state.quiz || position() >= timelineLength(state.model) - 1) return stop();
      next();
    }, STEP_MS / state.speed);
  }

  function setSpeed(speed) {
    setState({ speed });
    if (state.playing) startTimer();
  }

  /** Show a new trace ({structure, numbers}). keepLayout: drawn as the graph on show (the
   * server then sends no SVG): keep the SVG and the view. fold: the server's folding of it
   * (which element shows each node and edge). */
  function load(trace, svg, source, { keepLayout = false, position: at = null, fold = null } = {}) {
    const model = buildModel(trace, source, fold, state.over && !state.predict);
    const kept = keepLayout && ui.graph && state.model?.count === model.count;
    if (!kept) {
      unmountGraph(ui.graph);
      ui.graph = mountGraph(part("graph"), svg, model);
      ui.view = null;
    }
    // no step asked for: the finished picture, the end of the walk ("end": that, stepped to)
    const where = at && at !== "end" ? clampStep(model, at.phase ?? "backward", at.step) : fromTimeline(model, timelineLength(model) - 1);
    ui.opening = at ? null : "finished";
    const selected = state.selected !== null && state.selected < model.count ? state.selected : null;
    // predict mode: the answers given so far hold for this program until its text changes
    const sameProgram = source === state.model?.source;
    setState({ model, ...where, selected, quiz: null, verdict: null, frontier: sameProgram ? state.frontier : -1 });
    if (state.predict && position() > reachable()) goTo(position());
    if (!kept) fit();
  }

  /** The first view of every graph: the whole graph if its text is readable so; otherwise
   * readable, around the current node (or the output), following the steps. */
  function fit() {
    ui.mode = "auto";
    const id = ui.view?.current >= 0 ? ui.view.current : state.model?.structure.output;
    if (ui.graph) fitReadable(ui.graph, id);
  }

  /** The whole graph in view, however small (Fit, and the 0 key). */
  function whole() {
    ui.mode = "whole";
    if (ui.graph) fitGraph(ui.graph);
  }

  function zoom(factor, x = null, y = null) {
    if (!ui.graph) return;
    ui.mode = "moved";
    zoomGraph(ui.graph, factor, x, y);
  }

  function setPredict(on) {
    const where = { phase: state.phase, step: state.step };
    if (state.model) setStepOver(state.model, state.over && !on); // predict: every step
    setState({ predict: on, quiz: null, verdict: null, ...where });
    if (on && position() > reachable()) goTo(position()); // a finished graph hides its grads
  }

  /** Step over folded calls (one step each) or into them. */
  function setOver(over) {
    if (state.model) setStepOver(state.model, over && !state.predict);
    setState({ over });
  }

  function wire() {
    part("first")?.addEventListener("click", () => goTo(0));
    part("prev")?.addEventListener("click", prev);
    part("next")?.addEventListener("click", next);
    part("last")?.addEventListener("click", () => goTo(Number.MAX_SAFE_INTEGER));
    part("again")?.addEventListener("click", () => goTo(0));
    part("play")?.addEventListener("click", togglePlay);
    part("scrubber")?.addEventListener("input", (e) => goTo(Number(e.target.value)));
    part("phase-forward")?.addEventListener("click", () => goTo(0));
    part("phase-backward")?.addEventListener("click", () => state.model && goTo(state.model.forwardSteps));
    wireGraph();
    refitOnResize(part("explanation"));
  }

  /** The explanation's lines are fitted again when its width changes (a class's panel beside
   * it, a window resized): its height is fixed, and the fitting changes only its type. */
  function refitOnResize(panel) {
    if (!panel) return;
    let width = null;
    new ResizeObserver(([entry]) => {
      const now = Math.round(entry.contentRect.width);
      if (width !== null && now !== width) fitLines(panel);
      width = now;
    }).observe(panel);
  }

  function wireGraph() {
    const view = part("graph");
    wireGraphInput(view, {
      active: () => Boolean(ui.graph),
      pan: (dx, dy) => {
        panGraph(ui.graph, dx, dy);
        ui.mode = "moved";
      },
      zoom,
      click: (target) => {
        const call = target.closest?.("g.call");
        if (call) return options.onFold?.(call.id); // a box opens, a cluster's frame folds
        const id = nodeIdOf(target);
        if (id !== null) select(id);
      },
    });
    view.addEventListener("keydown", (e) => {
      const id = e.key === "Enter" || e.key === " " ? nodeIdOf(e.target) : null;
      if (id === null) return;
      e.preventDefault();
      e.stopPropagation();
      select(id);
    });
    // while the user has not zoomed or panned, the graph stays fitted as its frame changes size
    new ResizeObserver(() => {
      if (ui.graph && ui.mode === "auto") fit();
      else if (ui.graph && ui.mode === "whole") whole();
    }).observe(view);
  }

  function select(id) {
    setState({ selected: state.selected === id ? null : id });
    options.onSelect?.(state.selected);
  }

  const api = {
    state,
    setState,
    render,
    load,
    goTo,
    next,
    prev,
    answer,
    togglePlay,
    stop,
    setSpeed,
    setPredict,
    setOver,
    fit,
    whole,
    onKey: (e) => onStepKey(e, api, options.release),
    /** The previous (-1) or next (+1) iteration of a training loop, at the same step. */
    iterate: (delta) => Boolean(options.iterations?.has(delta)) && (options.iterations.go(delta, "same"), true),
    info,
    position,
    zoom,
    /** "finished" on the finished picture the graph opened on, "started" back at its first
     * step from there, null once stepped elsewhere. */
    opening: () => ui.opening,
    positionOf: (phase, step) => (state.model ? toTimeline(state.model, phase, Math.max(0, step)) : 0),
    atEnd: () => Boolean(state.model) && position() >= timelineLength(state.model) - 1,
    get graph() {
      return ui.graph;
    },
    get view() {
      return ui.view;
    },
  };
  wire();
  return api;
}
