// The notebook widget's front end (app/notebook, through anywidget): the player of /embed and
// the offline file, fed by the kernel instead of a server. The kernel traced and laid out the
// graph; this module only renders it (startPlayer, the same stepper as every other page) and
// keeps the step in the widget's model, so `w.step = 5` in Python moves it and a step here
// updates Python. The keys are the widget's only while it has focus: they are handled on its
// root, and the ones it uses go no further (Jupyter's command mode never sees them); Esc or a
// click outside gives them back. The app bundles this module with its imports (app/draw/offline.py).

import { refolded } from "./model.js";
import { startPlayer } from "./player.js";

/** The notebook's own theme, where the front end says it (JupyterLab); else the system's. */
function hostTheme() {
  const light = document.body.dataset.jpThemeLight;
  if (light === "true") return "light";
  if (light === "false") return "dark";
  return null;
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
  sync(); // Python learns where the walk opened (the finished picture: the last step)

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

  frame.addEventListener("keydown", (e) => {
    if (stepper.onKey(e)) e.stopPropagation();
  });
  // a click on the graph or the text gives the widget the keys (buttons take focus themselves)
  frame.addEventListener("pointerdown", (e) => {
    if (!e.target.closest?.("button, input, a, [tabindex]:not(.gradstep-nb)")) frame.focus({ preventScroll: true });
  });
  return () => {
    stepper.stop();
    model.off("change:step", follow);
    model.off("change:phase", follow);
    model.off("change:svg", relaid);
  };
}

