// /embed: the player in an iframe of a slide deck or a web page. The state comes from the same
// URL query as the main page (url.js), plus controls, autoplay, theme and scale. The host page
// drives it with postMessage (README, "Embed in slides"); it answers with events.

import { fetchGraph } from "./api.js";
import { createPlayer, playerKeys } from "./player.js";
import { embedOptions, parseCommand } from "./embed-options.js";
import { queryToState } from "./url.js";

const root = document.querySelector("[data-player]");
const fromUrl = queryToState(location.search);
const opts = embedOptions(location.search);

function post(event, detail = {}) {
  if (window.parent === window) return;
  window.parent.postMessage({ source: "gradstep", event, ...detail }, "*");
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
  const box = root.querySelector('[data-part="error"]');
  box.textContent = message;
  box.hidden = false;
  root.dataset.state = "error";
  post("error", { message });
}

async function start() {
  if (opts.theme !== "auto") document.documentElement.dataset.theme = opts.theme;
  document.documentElement.style.setProperty("--embed-scale", String(opts.scale));
  root.classList.add(`controls-${opts.controls}`);
  if (!fromUrl.source) {
    showError("No program: add ?source=… to the link (the Share dialog writes it).");
    return;
  }
  const result = await fetchGraph(fromUrl.source, fromUrl.values);
  if (!result.ok) {
    const where = result.error.line ? ` (line ${result.error.line}, column ${result.error.column})` : "";
    showError(`${result.error.message}${where}`);
    return;
  }
  const start = opts.autoplay || (fromUrl.phase === null && fromUrl.step === null) ? null : { phase: fromUrl.phase ?? "backward", step: fromUrl.step ?? 0 };
  const player = createPlayer(root, {
    trace: result.body.trace,
    svg: result.body.svg,
    source: fromUrl.source,
    decimals: fromUrl.decimals,
    scale: opts.scale,
    start,
    onStep: (info) => {
      root.dataset.position = String(info.position);
      post("stepchanged", info);
    },
  });
  const open = root.querySelector('[data-part="open"]');
  if (open) open.href = `/${location.search}`;

  document.addEventListener("keydown", playerKeys(player, release));
  // a click anywhere in the frame engages the keyboard (a focused frame gets the keys)
  root.addEventListener("pointerdown", () => root.classList.add("engaged"));
  window.addEventListener("focus", () => root.classList.add("engaged"));
  window.addEventListener("blur", () => root.classList.remove("engaged"));
  new ResizeObserver(() => player.refit()).observe(root.querySelector('[data-part="graph"]'));

  window.addEventListener("message", (e) => {
    if (e.source !== window.parent || window.parent === window) return;
    const command = parseCommand(e.data);
    if (!command) return;
    let moved = false;
    if (command.name === "next") moved = player.next();
    else if (command.name === "prev") moved = player.prev();
    else if (command.name === "play") player.play();
    else if (command.name === "goto") {
      moved = player.goto(command.phase ? player.positionOf(command.phase, command.step) : command.step);
    }
    // every command is answered once: a move by onStep, a command that did not move here
    if (!moved) post("stepchanged", player.info());
  });

  root.dataset.position = String(player.position);
  root.dataset.state = "ready";
  post("ready", player.info());
  if (opts.autoplay) player.play();
}

start();
