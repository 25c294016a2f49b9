// The page's panels about the program's own run: what it printed (the answer's console) and
// plotted (its figures, drawn by plots.js), which engine built its graph (the engine switch
// when both can), and where a learner's own engine left gradients that differ from the true
// ones (numbers.findings). DOM by textContent only; every name, number and sentence is the
// engine's, written by parts.js.

import { el } from "./explain.js";
import { findingPosition } from "./model.js";
import { findingText, partsText } from "./parts.js";
import { figuresContent } from "./plots.js";

const $ = (id) => document.getElementById(id);

/** What the program printed, a row per line: "line 12 │ 24.7041". */
function consoleRows(lines) {
  return lines.map(([line, text]) => el("li", {}, el("span", { class: "console-at", text: `line ${line}` }), el("span", { class: "console-bar", text: " │ ", "aria-hidden": "true" }), el("span", { class: "console-text", text })));
}

/** The engine switch when both engines can build the graph ("auto": the program's own class,
 * named on its button); else, for the program's own engine, which one runs; for gradstep's
 * alone, nothing. */
function paintEngine(engines, ownClass, structure, engine) {
  const both = engines.includes("program") && engines.includes("gradstep");
  $("engine-switch").hidden = !both;
  for (const button of $("engine-switch").querySelectorAll("button")) button.setAttribute("aria-pressed", String(button.dataset.engine === engine));
  const yours = $("engine-switch").querySelector('[data-engine="auto"]');
  if (yours) {
    yours.textContent = ownClass ? `your ${ownClass}` : "your engine";
    yours.title = `Your ${ownClass ? `class ${ownClass}` : "engine"} as you wrote it: its graph, your backward pass, checked against the true gradients`;
  }
  const own = !both && structure.engine === "program";
  $("engine-note").hidden = !own;
  $("engine-note").textContent = own ? (ownClass ? `your engine: class ${ownClass}` : "your engine") : "";
}

/** The finding the page points at (in the editor, in the list): the first wrong write first,
 * until another is activated; `pointed` ({model, index}) starts over with each model. */
export function pointedFinding(pointed, model) {
  if (pointed.model !== model) Object.assign(pointed, { model, index: 0 });
  return model.findings[pointed.index] ?? null;
}

/** The panels for `state` (the page's): the console, the engine, the findings (`revealed`:
 * false while predict mode still asks for grads they would give away). `paintOnce(id, deps,
 * build)` rebuilds a panel only when its deps changed. */
export function renderOwn(state, pointed, paintOnce, revealed) {
  const { model } = state;
  paintOnce("console", [state.console], () => consoleRows(state.console));
  $("console-panel").hidden = !state.console.length;
  paintOnce("plots", [state.plots], () => figuresContent(state.plots));
  $("plots-panel").hidden = !state.plots.length;
  paintEngine(state.engines, state.ownClass, model.structure, state.engine);
  const stage = $("stage"); // whose engine built the graph on show (CSS and tests read it)
  if (stage.dataset.engine !== model.structure.engine) {
    stage.dataset.engine = model.structure.engine;
    // a learner's engine puts the editor and its findings at the top of the program's column
    // (own.css): show them there, whatever was scrolled to while the program was typed in
    if (model.structure.engine === "program") document.querySelector(".side").scrollTop = 0;
  }
  $("findings-panel").hidden = model.structure.engine !== "program";
  $("findings-panel").classList.toggle("all-right", revealed && !model.findings.length);
  $("findings-panel").classList.toggle("unrevealed", !revealed);
  paintOnce("findings", [model, state.decimals, pointed.index, revealed], () =>
    revealed ? findingsContent(model, state.decimals, pointed.index) : [el("p", { class: "hint", text: "Predict mode: your engine's gradients are checked here once every step is answered." })],
  );
  $("legend-wrong").hidden = !revealed || !model.findings.length;
}

/** The findings panel's content: each mistake (a finding no other causes), the first wrong
 * write first, a button that goes to where it went wrong; under it, the gradients it made wrong
 * too (its consequences, one line each); or the sentence that all is well. */
function findingsContent(model, decimals, pointed) {
  const { findings } = model;
  if (!findings.length) return [el("p", { class: "findings-ok", text: "Every gradient your engine computed equals the true one." })];
  const item = (f, i, own) => {
    const node = model.byId[f.node];
    const button = el(
      "button",
      { type: "button", class: own ? "finding-item" : "finding-item consequence", "aria-current": String(i === pointed) },
      // a consequence is one line: its grads (which name it) and where it went wrong
      ...(own ? [el("span", { class: "finding-node", text: node.name })] : []),
      el("span", { class: "finding-grads", text: partsText(node.sum, model, decimals) }),
      ...(own ? [el("span", { class: "finding-text", text: findingText(f, decimals) })] : []),
      el("span", { class: "finding-where", text: f.span ? `line ${f.span.line}` : "" }),
    );
    button.dataset.finding = String(i);
    return button;
  };
  const causes = findings.map((f, i) => [f, i]).filter(([f]) => f.cause === null);
  const items = causes.map(([f, i]) => {
    const follow = findings.map((g, k) => [g, k]).filter(([g]) => g.cause === i);
    const also = follow.length ? [el("p", { class: "finding-also", text: follow.length === 1 ? "made one more gradient wrong:" : `made ${follow.length} more gradients wrong:` }), el("ol", { class: "finding-consequences" }, ...follow.map(([g, k]) => el("li", {}, item(g, k, false))))] : [];
    return el("li", {}, item(f, i, true), ...also);
  });
  const n = findings.length;
  const count = n === 1 ? "1 gradient differs from the true one." : causes.length === 1 ? `${n} gradients differ from the true ones, all from one mistake.` : `${n} gradients differ from the true ones, from ${causes.length} mistakes; the first wrong write first.`;
  return [el("p", { class: "hint", text: count }), el("ol", { class: "findings-list" }, ...items)];
}

/** Wire the engine switch (onEngine(engine)) and the findings' buttons: activating one (click,
 * Enter, Space) goes to its step (the end when it names none), selects its node and points
 * the editor at its line, scrolled into view. */
export function wireOwn(stepper, pointed, editor, onEngine) {
  $("engine-switch").addEventListener("click", (e) => {
    const engine = e.target.closest("button")?.dataset.engine;
    if (engine && engine !== stepper.state.engine) onEngine(engine);
  });
  $("findings").addEventListener("click", (e) => {
    const index = Number(e.target.closest("button[data-finding]")?.dataset.finding);
    const model = stepper.state.model;
    const finding = model?.findings[index];
    if (!finding) return;
    pointed.index = index;
    stepper.goTo(findingPosition(model, finding));
    stepper.setState({ selected: finding.node });
    if (finding.span) editor.reveal(finding.span);
    // a phone shows the panels under the stage: bring the step (graph and words) into view
    if (matchMedia("(max-width: 900px)").matches) $("stage").scrollIntoView({ block: "start" });
    else $("editor").scrollIntoView({ block: "nearest" }); // the side panel scrolled to the list
  });
}
