// /embed: the stepper in an iframe of a slide deck or a web page. The state comes from the same
// URL query as the main page (url.js), plus controls, autoplay, theme and scale. The host page
// drives it with postMessage (docs/classroom.md, "Embed in slides and pages"); it answers with
// events. Commands that arrive before the graph is ready are kept and applied once it is.

import { fetchGraph } from "./api.js";
import { embedOptions, parseCommand } from "./embed-options.js";
import { createStepper } from "./stepper.js";
import { createThreeWays } from "./three-ways.js";
import { openingQuery, queryToState } from "./url.js";

const root = document.querySelector("[data-player]");
const linked = document.getElementById("gradstep-link")?.textContent ?? null; // /s/{id}/embed in place
const opened = openingQuery(linked, location.search);
const fromUrl = queryToState(opened);
const opts = embedOptions(opened);
const early = []; // commands from the host before the graph was ready
let stepper = null;

function post(event, detail = {}) {
  if (window.parent !== window) window.parent.postMessage({ source: "gradstep", event, ...detail }, "*");
}

/** Give the keyboard back to the page around the frame (Esc, or stepping past either end). */
function release(reason) {
  document.activeElement?.blur?.();
  root.classList.remove("engaged");
  post("release", { reason });
  try {
    window.parent.focus(); // allowed across origins: focuses the host's window
  } catch {
    // a sandboxed frame may not: the host still gets the release event
  }
}

function showError(message) {
  root.querySelector('[data-part="explanation"]').replaceChildren();
  const box = root.querySelector('[data-part="error"]');
  box.textContent = message;
  box.hidden = false;
  root.dataset.state = "error";
  post("error", { message });
}

function apply(command) {
  let moved = false;
  if (command.name === "next") moved = stepper.next();
  else if (command.name === "prev") moved = stepper.prev();
  else if (command.name === "play") stepper.togglePlay();
  else if (command.name === "goto") moved = stepper.goTo(command.phase ? stepper.positionOf(command.phase, command.step) : command.step);
  if (!moved) post("stepchanged", stepper.info()); // every command is answered once
}

window.addEventListener("message", (e) => {
  if (e.source !== window.parent || window.parent === window) return;
  const command = parseCommand(e.data);
  if (!command) return;
  if (stepper?.state.model) apply(command);
  else early.push(command);
});

/** The frame's width / height once it has a size: a frame on a slide not shown yet may have
 * none (it is laid out when its slide is), and asking for a graph to fit no room would fail. */
function frameAspect() {
  const sized = () => innerWidth > 0 && innerHeight > 0;
  if (sized()) return Promise.resolve(innerWidth / innerHeight);
  return new Promise((resolve) => {
    const check = () => {
      if (!sized()) return;
      removeEventListener("resize", check);
      resolve(innerWidth / innerHeight);
    };
    addEventListener("resize", check);
  });
}

/** view=three-ways: the page's Three ways view in place of the stepper (static/three-ways.js);
 * it shows its own refusal. The host's step commands have nothing to step then. */
function showThreeWays() {
  const view = document.createElement("section");
  view.id = "three-ways";
  view.className = "three-ways";
  view.setAttribute("aria-label", "Three ways to differentiate this program");
  root.classList.add("embed-ways");
  root.replaceChildren(view);
  const program = { source: fromUrl.source ?? "", preset: fromUrl.preset, values: fromUrl.values, engine: fromUrl.engine, iteration: fromUrl.iteration };
  createThreeWays(view).show(program, fromUrl.decimals);
  root.dataset.state = "ready";
  post("ready", { view: "three-ways" });
}

async function start() {
  if (opts.theme !== "auto") document.documentElement.dataset.theme = opts.theme;
  document.documentElement.style.setProperty("--embed-scale", String(opts.scale));
  root.classList.add(`controls-${opts.controls}`);
  if (!fromUrl.source && !fromUrl.preset) return showError("No program: add ?source=… or ?preset=… to the link (the Share dialog writes it).");
  if (fromUrl.view === "three-ways") return showThreeWays();
  const aspect = await frameAspect();
  const result = await fetchGraph({ source: fromUrl.source ?? "", preset: fromUrl.preset, values: fromUrl.values, rankdir: fromUrl.rankdir, aspect, fold: fromUrl.fold, engine: fromUrl.engine, iteration: fromUrl.iteration });
  if (!result.ok) {
    const where = result.error.line ? ` (line ${result.error.line}, column ${result.error.column})` : "";
    return showError(`${result.error.message}${where}`);
  }
  stepper = createStepper(root, {
    decimals: fromUrl.decimals,
    state: { over: fromUrl.over },
    release,
    paging: () => true, // a slide's clicker cannot scroll the explanation
    onStep: (info) => {
      root.dataset.position = String(info.position);
      post("stepchanged", info);
    },
  });
  const at = opts.autoplay || (fromUrl.phase === null && fromUrl.step === null) ? { phase: "forward", step: 0 } : { phase: fromUrl.phase ?? "backward", step: fromUrl.step ?? 0 };
  const { structure, numbers } = result.body;
  stepper.load({ structure, numbers }, result.body.svg, result.body.source, { position: at, fold: result.body.fold });
  const open = root.querySelector('[data-part="open"]');
  if (open) open.href = linked === null ? `/${location.search}` : location.pathname.replace(/\/embed$/, "");
  document.addEventListener("keydown", stepper.onKey);
  // a click anywhere in the frame engages the keyboard (a focused frame gets the keys)
  root.addEventListener("pointerdown", () => root.classList.add("engaged"));
  window.addEventListener("focus", () => root.classList.add("engaged"));
  window.addEventListener("blur", () => root.classList.remove("engaged"));
  for (const command of early.splice(0)) apply(command);
  root.dataset.position = String(stepper.position());
  root.dataset.state = "ready";
  post("ready", stepper.info());
  if (opts.autoplay) stepper.togglePlay();
}

start();
