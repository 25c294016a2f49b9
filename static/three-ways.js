// The Three ways view (issue 43, docs/three-ways.md): the program on screen differentiated
// symbolically, numerically and in forward mode, beside reverse mode's one backward pass, with
// what each costs, laid out from POST /api/three-ways's answer. The engine writes every
// expression, step and number; this module places them (a slot's number written as the
// stepper writes its own, parts.js). DOM by textContent only. A refusal is shown in the view.

import { fetchThreeWays } from "./api.js";
import { el } from "./explain.js";
import { MINUS, formatNumber } from "./format.js";
import { rowCells } from "./parts.js";
import { costBars, errorPlot } from "./three-ways-plots.js";

// a derivative to 16 significant digits, as the seed prints them (the ways agree to about
// 1e-9: that is what the view shows), trailing zeros dropped; an error or an h to 3
const written = (x, digits) => {
  if (x === null || x === undefined) return "—";
  const tiny = x !== 0 && Math.abs(x) < 1e-3;
  const [mantissa, exponent] = (tiny ? x.toExponential(digits - 1) : x.toPrecision(digits)).split("e");
  const short = mantissa.includes(".") ? mantissa.replace(/\.?0+$/, "") : mantissa;
  return (exponent === undefined ? short : `${short}e${exponent.replace("+", "")}`).replaceAll("-", MINUS);
};
const full = (x) => written(x, 16);
const small = (x) => written(x, 3);
const count = (n) => (n === null || n === undefined ? "—" : n.toLocaleString("en"));
const counted = (n, one, many) => `${count(n)} ${n === 1 ? one : many}`;
const operations = (n) => counted(n, "operation", "operations");
const DOMINANT = { roundoff: "roundoff dominates", truncation: "truncation dominates", balanced: "roundoff and truncation balance" };
const FEW_DERIVATIVES = 3; // more are shown one at a time, picked
const STEP_KEYS = { ArrowLeft: -1, PageUp: -1, ArrowRight: 1, PageDown: 1 };

/** The view in `root`: `show(program, decimals)` asks for the program's three ways when it is
 * not the one shown (`program` null: the view is closed and asks nothing). */
export function createThreeWays(root) {
  const ui = { key: null, answer: null, error: null, decimals: 4, inflight: null, input: 0, derivative: 0, pass: 0, step: 0 };

  async function load(program, key) {
    ui.inflight?.abort();
    const controller = new AbortController();
    ui.inflight = controller;
    ui.answer = null;
    ui.error = null;
    root.dataset.state = "loading";
    root.replaceChildren(el("p", { class: "hint", text: "Differentiating the program three ways…" }));
    let got;
    try {
      got = await fetchThreeWays(program, controller.signal);
    } catch {
      return; // a newer program's request took its place
    }
    if (ui.inflight !== controller || ui.key !== key) return;
    ui.inflight = null;
    if (got.ok) {
      ui.answer = got.body;
      ui.input = 0;
      ui.derivative = 0;
      ui.pass = 0;
      ui.step = 0;
    } else ui.error = got.error;
    paint();
  }

  function paint() {
    if (ui.error) {
      root.dataset.state = "refused";
      root.replaceChildren(el("p", { class: "error ways-refusal", role: "alert", text: ui.error.message }));
      return;
    }
    const a = ui.answer;
    if (!a) return;
    root.dataset.state = "shown";
    root.replaceChildren(headline(a), comparison(a), cards.symbolic(), cards.numerical(), cards.forward(), costsCard(a));
    fitComparison();
  }

  // the side-by-side table in columns where they fit, else each input's ways one under another
  // (a phone; an MLP's long names on a laptop): no way's column hidden behind a scroll
  function fitComparison() {
    const box = root.querySelector(".ways-compare .ways-scroll");
    if (!box) return;
    box.classList.remove("stacked");
    if (box.scrollWidth > box.clientWidth + 1) box.classList.add("stacked");
  }
  new ResizeObserver(fitComparison).observe(root);

  /** The view's numerical card and forward mode's step again, in place (a choice changed). */
  function repaint(which) {
    const old = root.querySelector(`[data-card="${which}"]`);
    if (!old) return;
    const fresh = cards[which]();
    old.replaceWith(fresh);
    return fresh;
  }

  const cards = {
    symbolic: () => symbolicCard(ui.answer, ui.derivative, (input) => {
      ui.derivative = input;
      repaint("symbolic").querySelector("select")?.focus();
    }),
    numerical: () => numericalCard(ui.answer),
    forward: () => forwardCard(ui.answer),
  };

  /** Each input's central difference (of more than a few, the one picked) and its error
   * against h, where its sweep ran. */
  function numericalCard(a) {
    const chosen = a.numerical.find((n) => n.input === ui.input) ?? a.numerical[0];
    const card = section("numerical", "Numerical: central differences", `(f(x + h) − f(x − h)) / 2h, ${count(a.numerical_passes)} forward passes (2 per input)`);
    if (!chosen) return card;
    if (a.numerical.length > 1) {
      const pick = el("select", { "aria-label": "Which input's central difference" });
      for (const n of a.numerical) pick.append(el("option", { value: String(n.input), text: a.inputs[n.input].symbol }));
      pick.value = String(chosen.input);
      pick.addEventListener("change", () => {
        ui.input = Number(pick.value);
        repaint("numerical").querySelector("select")?.focus();
      });
      card.append(el("label", { class: "inline ways-pick" }, "Plotted: ", pick));
    }
    const few = a.numerical.length <= FEW_DERIVATIVES;
    for (const n of few ? a.numerical : [chosen]) {
      const input = a.inputs[n.input];
      const dominant = n.dominant ? `: ${DOMINANT[n.dominant]}` : "";
      card.append(el("p", { class: "ways-line" }, el("span", { class: "ways-math", text: `${d(a, input)} ≈ ${full(n.value)}` }), el("span", { class: "ways-note", text: ` at h = ${small(a.h)}, |error| ${small(n.error)}${dominant}` })));
    }
    const input = a.inputs[chosen.input];
    if (!chosen.sweep) {
      card.append(el("p", { class: "ways-note", text: `${d(a, input)} was not swept over h (the sweeps' budget)` }));
      return card;
    }
    const figure = el("figure", { class: "ways-figure" }, errorPlot(a.sweep, chosen.sweep, a.h, input.symbol));
    figure.append(el("figcaption", { text: `|central difference − exact| of ${d(a, input)} against h: roundoff left of the sweet spot, truncation right of it` }));
    card.append(figure);
    return card;
  }

  function forwardCard(a) {
    const fm = a.forward_mode;
    const card = section("forward", "Forward mode: one tangent pass per input", `each pass seeds one input's tangent with 1 and carries (v, dv) node by node${fm.left_out ? `; ${fm.left_out} inputs' passes not run (their budget)` : ""}`);
    const stepped = fm.passes.filter((p) => p.slots);
    if (!stepped.length || !fm.steps.length) return card;
    const pass = stepped.find((p) => p.input === ui.pass) ?? stepped[0];
    const step = Math.min(ui.step, fm.steps.length - 1);
    const bar = el("div", { class: "ways-stepbar" });
    if (stepped.length > 1) {
      const pick = el("select", { "aria-label": "Which input's tangent pass" });
      for (const p of stepped) pick.append(el("option", { value: String(p.input), text: `pass for ${a.inputs[p.input].symbol}` }));
      pick.value = String(pass.input);
      pick.addEventListener("change", () => {
        ui.pass = Number(pick.value);
        repaint("forward").querySelector("select")?.focus();
      });
      bar.append(pick);
    } else bar.append(el("span", { class: "ways-pass", text: `pass for ${a.inputs[pass.input].symbol}` }));
    const prev = el("button", { type: "button", "data-move": "-1", "aria-label": "Previous node (←)", title: "Previous node (←)", text: "←" });
    const next = el("button", { type: "button", "data-move": "1", "aria-label": "Next node (→)", title: "Next node (→)", text: "→" });
    prev.disabled = step === 0;
    next.disabled = step === fm.steps.length - 1;
    bar.append(prev, el("output", { class: "ways-position", text: `node ${step + 1} of ${fm.steps.length}` }), next);
    const model = { structure: { slots: fm.kinds }, numbers: { slots: pass.slots } };
    const rows = fm.steps[step].rows.map((row) => el("p", { class: "line" }, ...rowCells(row, model, ui.decimals).map((c) => el("span", { class: c.role, text: c.text }))));
    const box = el("div", { class: "ways-steps", tabindex: "0", "aria-label": "Forward mode's steps: ← and → step node by node" }, bar, el("div", { class: "ways-step", "aria-live": "polite" }, ...rows));
    card.append(box);
    return card;
  }

  // forward mode stepped by its buttons, or by the arrows while its steps have focus (a key
  // handled here is marked so: the stepper's keys (keys.js) leave the hidden graph alone)
  root.addEventListener("click", (e) => {
    const move = e.target.closest?.("[data-move]");
    if (move) step(Number(move.dataset.move), true);
  });
  root.addEventListener("keydown", (e) => {
    if (!e.target.closest?.(".ways-steps") || e.target.tagName === "SELECT") return;
    const last = (ui.answer?.forward_mode.steps.length ?? 1) - 1;
    const to = e.key === "Home" ? 0 : e.key === "End" ? last : STEP_KEYS[e.key] === undefined ? null : ui.step + STEP_KEYS[e.key];
    if (to === null) return;
    e.preventDefault();
    ui.step = Math.max(0, Math.min(last, to));
    repaint("forward")?.querySelector(".ways-steps").focus();
  });

  function step(delta, fromButton) {
    const last = (ui.answer?.forward_mode.steps.length ?? 1) - 1;
    ui.step = Math.max(0, Math.min(last, ui.step + delta));
    const card = repaint("forward");
    if (fromButton) (card?.querySelector(`[data-move="${delta}"]:not([disabled])`) ?? card?.querySelector(".ways-steps"))?.focus();
  }

  return {
    /** Open before any program has run: the run's error (the graph's refusal), or the wait. */
    waiting(error) {
      if (ui.key !== null) return;
      root.dataset.state = error ? "refused" : "loading";
      root.replaceChildren(error ? el("p", { class: "error ways-refusal", role: "alert", text: error }) : el("p", { class: "hint", text: "Run a program to differentiate it three ways." }));
    },
    show(program, decimals) {
      if (program === null) { // closed: an answer on its way is not waited for, one shown is kept
        if (ui.inflight) ui.key = null;
        ui.inflight?.abort();
        ui.inflight = null;
        return;
      }
      const key = JSON.stringify(program);
      if (key !== ui.key) {
        ui.key = key;
        ui.decimals = decimals;
        load(program, key);
      } else if (decimals !== ui.decimals) {
        ui.decimals = decimals;
        repaint("forward");
      }
    },
  };
}

/** "∂f/∂x": the output's derivative by an input, in the expressions' names. */
function d(a, input) {
  return `∂${a.output}/∂${input.symbol}`;
}

function section(card, title, lead) {
  const s = el("section", { class: `ways-card ways-${card}`, "data-card": card, "aria-label": title });
  s.append(el("h3", { class: "ways-title", text: title }));
  if (lead) s.append(el("p", { class: "ways-lead", text: lead }));
  return s;
}

/** The output's value, then its expression in the inputs (an MLP's runs to lines: it is cut
 * to a few, so the ways stay on the first screen). */
function headline(a) {
  const value = el("span", { class: "ways-math ways-value", text: `${a.output} = ${full(a.value)}` });
  return el("div", { class: "ways-function" }, value, el("span", { class: "ways-math ways-of", text: `= ${a.symbolic.function}` }));
}

/** Every way's d output / d input side by side, an input a row. */
function comparison(a) {
  const card = section("compare", "Side by side", "each input's derivative, by each way");
  const symbolic = new Map(a.symbolic.derivatives.map((x) => [x.input, x.value]));
  const numerical = new Map(a.numerical.map((x) => [x.input, x.value]));
  const forward = new Map(a.forward_mode.passes.map((x) => [x.input, x.result]));
  const head = ["", "reverse mode", "forward mode", "symbolic", `central, h = ${small(a.h)}`];
  const table = el("table", { class: "ways-table" });
  table.append(el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))));
  const body = el("tbody");
  a.inputs.forEach((input, i) => {
    // each cell names its way too: a phone's narrow table writes its cells one under another
    const cells = [input.reverse, forward.get(i), symbolic.get(i), numerical.get(i)].map((x, k) => el("td", { class: "num", "data-way": head[k + 1], text: full(x) }));
    body.append(el("tr", {}, el("th", { scope: "row", class: "ways-math", text: d(a, input) }), ...cells));
  });
  table.append(body);
  card.append(el("div", { class: "ways-scroll" }, table));
  return card;
}

/** A program of a few inputs shows each derivative; of more, the one picked (`chosen`, an
 * input's index; `pick` is told another). */
function symbolicCard(a, chosen, pick) {
  const s = a.symbolic;
  const card = section("symbolic", "Symbolic: the derivative written out", `built op by op from the graph; ${a.output} itself is ${operations(s.function_ops)}`);
  let shown = s.derivatives;
  if (s.derivatives.length > FEW_DERIVATIVES) {
    const select = el("select", { "aria-label": "Which input's derivative" });
    for (const x of s.derivatives) select.append(el("option", { value: String(x.input), text: d(a, a.inputs[x.input]) }));
    shown = [s.derivatives.find((x) => x.input === chosen) ?? s.derivatives[0]];
    select.value = String(shown[0].input);
    select.addEventListener("change", () => pick(Number(select.value)));
    const total = s.derivatives.reduce((sum, x) => sum + x.written, 0);
    card.append(el("p", { class: "ways-note", text: `${count(s.derivatives.length)} derivatives, ${operations(total)} written out in all` }));
    card.append(el("label", { class: "inline ways-pick" }, "Derivative ", select));
  }
  for (const x of shown) {
    const input = a.inputs[x.input];
    card.append(el("p", { class: "ways-expr ways-math", text: `${d(a, input)} = ${x.text}` }));
    const sizes = [`= ${full(x.value)}`, `${operations(x.written)} written out`, `${count(x.shared)} shared`];
    if (x.cse !== null) sizes.push(`${count(x.cse)} after cse`);
    card.append(el("p", { class: "ways-note", text: sizes.join(" · ") }));
    if (x.simplified !== null && x.simplified !== x.text) {
      card.append(el("p", { class: "ways-expr ways-math ways-simplified", text: `= ${x.simplified}` }), el("p", { class: "ways-note", text: `simplified by ${x.simplified_by}: ${operations(x.simplified_ops)}` }));
    }
  }
  if (s.left_out) card.append(el("p", { class: "ways-note", text: `${s.left_out} more inputs not differentiated symbolically (their budget)` }));
  for (const note of s.notes) card.append(el("p", { class: "ways-note", text: note }));
  return card;
}

function costsCard(a) {
  const c = a.costs;
  const card = section("costs", "Costs: elementary operations", `F, the forward pass; B, the backward pass; ${counted(c.inputs, "input", "inputs")}`);
  const rows = [
    ["forward pass F", c.forward],
    ["backward pass B", c.backward],
    ["one tangent pass F + B", c.tangent_pass],
    [`forward mode: ${counted(c.inputs, "tangent pass", "tangent passes")}`, c.forward_mode],
    ["reverse mode: F + B, every input", c.reverse_mode],
    [`numerical: ${count(a.numerical_passes)} forward passes`, c.numerical],
    ["symbolic: written out", c.symbolic],
  ];
  const table = el("table", { class: "ways-table ways-costs" });
  table.append(el("tbody", {}, ...rows.map(([label, n]) => el("tr", {}, el("th", { scope: "row", text: label }), el("td", { class: "num", text: count(n) })))));
  card.append(el("div", { class: "ways-scroll" }, table));
  const bars = [["forward mode", c.forward_mode], ["reverse mode", c.reverse_mode], ["numerical", c.numerical]];
  if (c.symbolic !== null) bars.push(["symbolic", c.symbolic]);
  card.append(el("figure", { class: "ways-figure" }, costBars(bars)));
  const verdict = c.cheap ? `≤ ${c.bound}: the cheap gradient principle holds` : `> ${c.bound}: past the cheap gradient principle's bound`;
  card.append(el("p", { class: `ways-ratio ${c.cheap ? "cheap" : "dear"}`, text: `B / F = ${count(c.backward)} / ${count(c.forward)} = ${formatNumber(c.ratio, 2)} ${verdict}` }));
  return card;
}
