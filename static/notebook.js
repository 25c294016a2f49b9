// The notebook widget's front end (app/notebook, through anywidget): the player of /embed and
// the offline file, fed by the kernel instead of a server. The kernel traced and laid out the
// graph; this module only renders it (startPlayer, the same stepper as every other page) and
// keeps the step in the widget's model, so `w.step = 5` in Python moves it and a step here
// updates Python. The keys are the widget's only while it has focus: they are taken at the
// window, before the notebook's own shortcuts see them (Notebook 7 listens there too), and none
// goes further, so command mode never acts on one (↓, 0 0, a, d d); a key with Ctrl, Alt or Cmd,
// Shift+Enter and Tab stay the notebook's. Esc or a click outside gives the keys back. The app
// bundles this module with its imports (app/draw/offline.py).

import { refolded } from "./model.js";
import { startPlayer } from "./player.js";

/** The notebook's own theme, where the front end says it (JupyterLab); else the system's. */
function hostTheme() {
  const light = document.body.dataset.jpThemeLight;
  if (light === "true") return "light";
  if (light === "false") return "dark";
  return null;
}

/** Keys the notebook keeps while the widget has focus: its shortcuts with a modifier (save,
 * run), Shift+Enter (run the cell) and Tab (focus moves on). */
function notebooksKey(e) {
  return e.ctrlKey || e.metaKey || e.altKey || e.key === "Tab" || (e.shiftKey && e.key === "Enter");
}

/** Hand the keys back to the notebook: its cell (JupyterLab, Notebook 7) or the page. */
function giveBack(frame) {
  frame.blur();
  const host = frame.closest(".jp-Cell, .jp-Notebook");
  host?.focus?.({ preventScroll: true });
}

export function render({ model, el }) {
  const frame = document.createElement("div");
  frame.className = "gradstep-nb";
  frame.tabIndex = 0;
  frame.setAttribute("role", "group");
  frame.setAttribute("aria-label", "gradstep stepper: click, then step with the arrow keys; Esc gives the keys back");
  frame.innerHTML = model.get("_player_html"); // templates/player.html, rendered by the app
  frame.style.setProperty("--gradstep-height", `${model.get("height")}px`);
  const theme = model.get("theme") === "auto" ? hostTheme() : model.get("theme");
  if (theme) frame.dataset.theme = theme;
  el.replaceChildren(frame);

  const root = frame.querySelector("[data-player]");
  let syncing = false;
  const sync = () => {
    syncing = true;
    model.set("phase", stepper.state.phase);
    model.set("step", stepper.state.step);
    model.save_changes();
    syncing = false;
  };
  const step = model.get("step");
  const stepper = startPlayer(
    root,
    {
      trace: model.get("trace"),
      svg: model.get("svg"),
      fold: model.get("fold"),
      source: model.get("source"),
      start: { phase: model.get("phase"), step: step < 0 ? null : step },
    },
    {
      decimals: model.get("decimals"),
      release: (reason) => reason === "escape" && giveBack(frame), // not past either end
      onStep: () => syncing || sync(),
      onFold: (element) => {
        // the kernel lays the same trace out again with these calls folded (Stepper.refold)
        const fold = refolded(stepper.state.model, element);
        if (fold !== null) model.send({ fold });
      },
    },
  );
  // Python learns where this view opened; a position Python set before it (w.step = 3 during
  // Run All, perhaps sent while this view's model was still loading) is sent again and wins
  model.send({ opened: { phase: stepper.state.phase, step: stepper.state.step } });

  const follow = () => {
    if (syncing) return;
    stepper.goTo(stepper.positionOf(model.get("phase"), model.get("step")));
    sync(); // clamped to the walk: Python sees where it really is
  };
  model.on("change:step", follow);
  model.on("change:phase", follow);
  const relaid = () => {
    const at = { phase: stepper.state.phase, step: stepper.state.step };
    stepper.load(model.get("trace"), model.get("svg"), model.get("source"), { position: at, fold: model.get("fold") });
  };
  model.on("change:svg", relaid);

  const onKey = (e) => {
    if (!frame.contains(document.activeElement) || notebooksKey(e)) return;
    e.stopImmediatePropagation(); // before any listener of the notebook's, at the window
    stepper.onKey(e);
  };
  window.addEventListener("keydown", onKey, true);
  // a theme switched while the widget is shown: follow it (JupyterLab marks its body)
  const themes = new MutationObserver(() => {
    const theme = hostTheme();
    if (model.get("theme") === "auto" && theme) frame.dataset.theme = theme;
  });
  themes.observe(document.body, { attributes: true, attributeFilter: ["data-jp-theme-light"] });
  // a click on the graph or the text gives the widget the keys (buttons take focus themselves)
  frame.addEventListener("pointerdown", (e) => {
    if (!e.target.closest?.("button, input, a, [tabindex]:not(.gradstep-nb)")) frame.focus({ preventScroll: true });
  });
  return () => {
    window.removeEventListener("keydown", onKey, true);
    themes.disconnect();
    stepper.stop();
    model.off("change:step", follow);
    model.off("change:phase", follow);
    model.off("change:svg", relaid);
  };
}

