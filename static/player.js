// The embeddable stepper: a graph, the step's explanation and a few controls, for slides and
// offline files. It reuses the stepper's modules (model, graph, panels) and keeps one small
// state of its own: the position on the walk (forward steps, then backward steps).

import { fitReadable, mountGraph, paintGraph, revealNode } from "./graph.js";
import { buildModel, fromTimeline, timelineLength, toTimeline, viewAt } from "./model.js";
import { explanationContent } from "./panels.js";

const PLAY_MS = 1200; // per step when playing: time to read one line of arithmetic
const READABLE_SCALE = 0.8; // px per point: below this node texts are too small (as the page)

/**
 * Mount a player in `root` (see templates/embed.html for the elements it expects).
 * options: {trace, svg, source, decimals, scale, start: {phase, step} | null, onStep(info)}.
 */
export function createPlayer(root, options) {
  const $ = (name) => root.querySelector(`[data-part="${name}"]`);
  const model = buildModel(options.trace, options.source ?? "");
  const total = timelineLength(model);
  const graph = mountGraph($("graph"), options.svg, model);
  const scale = options.scale ?? 1;
  let view = null;
  let position = options.start ? toTimeline(model, options.start.phase, options.start.step) : 0;
  position = clamp(position);
  let timer = null;
  let painted = -1;

  function clamp(p) {
    return Math.min(Math.max(Number.isFinite(p) ? Math.trunc(p) : 0, 0), Math.max(total - 1, 0));
  }

  function info() {
    const { phase, step } = fromTimeline(model, position);
    const lines = [...($("explanation")?.children ?? [])].map((p) => p.textContent.trim());
    const text = lines.join("\n");
    return { position, total, phase, step, playing: timer !== null, explanation: text };
  }

  function render() {
    const { phase, step } = fromTimeline(model, position);
    view = viewAt(model, phase, step, view);
    paintGraph(graph, model, view, options.decimals ?? 4, null, false);
    if (position !== painted) {
      $("explanation")?.replaceChildren(...explanationContent(model, phase, step, options.decimals ?? 4));
      if (view.current >= 0) revealNode(graph, view.current);
      painted = position;
    }
    const where = `${phase} ${step + 1}/${phase === "forward" ? model.forwardSteps : model.backwardSteps}`;
    const pos = $("position");
    if (pos) pos.textContent = where;
    const scrubber = $("scrubber");
    if (scrubber) {
      scrubber.max = String(Math.max(total - 1, 0));
      scrubber.value = String(position);
      scrubber.setAttribute("aria-valuetext", where);
    }
    for (const name of ["first", "prev"]) if ($(name)) $(name).disabled = position <= 0;
    for (const name of ["next", "last"]) if ($(name)) $(name).disabled = position >= total - 1;
    const play = $("play");
    if (play) {
      play.classList.toggle("playing", timer !== null);
      play.setAttribute("aria-label", timer !== null ? "Pause" : "Play");
    }
  }

  function goto(p) {
    const target = clamp(p);
    const moved = target !== position;
    position = target;
    render();
    if (moved) options.onStep?.(info());
    return moved;
  }

  function stop() {
    clearInterval(timer);
    timer = null;
    render();
  }

  function play() {
    if (timer !== null) return stop();
    if (position >= total - 1) goto(0);
    timer = setInterval(() => {
      if (position >= total - 1) stop();
      else goto(position + 1);
    }, PLAY_MS);
    render();
  }

  $("first")?.addEventListener("click", () => goto(0));
  $("prev")?.addEventListener("click", () => goto(position - 1));
  $("next")?.addEventListener("click", () => goto(position + 1));
  $("last")?.addEventListener("click", () => goto(total - 1));
  $("play")?.addEventListener("click", play);
  $("scrubber")?.addEventListener("input", (e) => goto(Number(e.target.value)));

  /** The whole graph if its text is readable so, else a readable part around the step. */
  function fit() {
    const { phase, step } = fromTimeline(model, position);
    view = viewAt(model, phase, step, view);
    // a thumbnail-sized frame shows more of the graph at a smaller size rather than one node
    const small = Math.min(1, Math.max(0.5, graph.size.width / 960));
    fitReadable(graph, view.current >= 0 ? view.current : model.trace.output, READABLE_SCALE * scale * small);
  }

  fit();
  render();
  return {
    info,
    goto,
    play,
    stop,
    next: () => goto(position + 1),
    prev: () => goto(position - 1),
    get position() {
      return position;
    },
    get total() {
      return total;
    },
    /** The walk position of (phase, step), clamped: for goto({phase, step}) commands. */
    positionOf: (phase, step) => clamp(toTimeline(model, phase, step)),
    atEnd: () => position >= total - 1,
    atStart: () => position <= 0,
    refit: fit,
  };
}

/**
 * Keys for a player inside a slide deck. Stepping past either end, or Esc, hands the keyboard
 * back to the page around the frame (`release`), so a presentation clicker's next PageDown
 * moves the deck again.
 */
export function playerKeys(player, release) {
  return (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const onControl = e.target instanceof HTMLInputElement || e.target instanceof HTMLButtonElement;
    switch (e.key) {
      case "ArrowRight":
      case "ArrowDown":
      case "PageDown":
        if (e.target instanceof HTMLInputElement) return; // the scrubber moves itself
        e.preventDefault();
        if (player.atEnd()) release("end");
        else player.next();
        break;
      case "ArrowLeft":
      case "ArrowUp":
      case "PageUp":
        if (e.target instanceof HTMLInputElement) return;
        e.preventDefault();
        if (player.atStart()) release("start");
        else player.prev();
        break;
      case "Home":
        e.preventDefault();
        player.goto(0);
        break;
      case "End":
        e.preventDefault();
        player.goto(player.total - 1);
        break;
      case " ":
        if (onControl) return;
        e.preventDefault();
        player.play();
        break;
      case "Escape":
        e.preventDefault();
        release("escape");
        break;
      default:
    }
  };
}
