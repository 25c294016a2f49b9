// Predict mode on the page: the question the stepper asks before a backward step, the fields
// for the class's answers, the score and the verdict. The stepper decides what is asked and
// keeps the score; this module paints it and reads the answers.

import { el } from "./explain.js";
import { formatNumber, isClose, parseNumber } from "./format.js";

const $ = (id) => document.getElementById(id);

export function createPredict(stepper) {
  const { state } = stepper;
  let painted = null;
  let inputs = [];

  function render() {
    const quiz = state.quiz?.class ? null : state.quiz; // a live class's question: class-teacher.js
    const key = quiz ? `${quiz.step}|${state.model.source}` : "";
    if (painted !== key) {
      painted = key;
      $("predict-form").hidden = !quiz;
      if (quiz) {
        $("predict-question").textContent = quiz.question;
        inputs = quiz.asks.map((ask, i) => el("input", { type: "text", inputmode: "decimal", autocomplete: "off", id: `predict-${i}`, "aria-label": ask.name }));
        $("predict-fields").replaceChildren(...quiz.asks.map((ask, i) => el("label", { for: `predict-${i}` }, `${ask.name} =`, inputs[i])));
        inputs[0]?.focus();
      }
    }
    const { right, asked, skipped } = state.score;
    const parts = [asked ? `${right} of ${asked} right` : "", skipped ? `${skipped} shown without an answer` : ""];
    $("predict-score").textContent = state.predict ? parts.filter(Boolean).join(" · ") : "";
    const result = $("predict-result");
    result.hidden = !state.verdict;
    result.className = `predict-result ${state.verdict?.right ? "right" : "wrong"}`;
    result.textContent = state.verdict?.text ?? "";
  }

  function answer(reveal) {
    const check = (ask, i) => {
      const guess = parseNumber(inputs[i]?.value ?? "");
      const ok = guess !== null && isClose(guess, ask.answer, state.decimals);
      const shown = formatNumber(ask.answer, state.decimals);
      return { ok, text: ok ? `${ask.name} = ${shown} ✓` : `${ask.name} is ${shown}, not ${guess === null ? "(blank)" : formatNumber(guess, state.decimals)} ✗` };
    };
    stepper.answer(reveal ? null : check);
    $("next").focus();
  }

  /** Next (a clicker's Page Down) at the open question: the answers typed are checked; with
   * none typed the step is shown, counted as shown without an answer. A clicker never sticks. */
  function next() {
    answer(inputs.every((input) => input.value.trim() === ""));
    return true;
  }

  $("predict").addEventListener("change", (e) => stepper.setPredict(e.target.checked));
  $("predict-form").addEventListener("submit", (e) => {
    e.preventDefault();
    answer(false);
  });
  $("predict-reveal").addEventListener("click", () => answer(true));
  return { render, next };
}
