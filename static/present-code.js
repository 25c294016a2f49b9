// The program's lines in Present mode (Python Tutor's strength): under the explanation, the line
// that made the step's value with the lines before and after it, its span marked, so a class
// sees which line the step is; C hides and shows them (shown at first on a 1080p projector).
// Plain DOM, text as textContent.

import { el } from "./explain.js";

export const CONTEXT_LINES = 1; // lines shown before and after the step's line
// shown at first on a screen this tall (a 1080p projector); on a 720p or 900p one the graph needs
// all its height (at 720p the neuron's text would fall under 18 px), and C shows them
export const TALL_PX = 1000;

/** Wire `box` (a <pre>); returns render(source, span, presenting): span is {line, column,
 * end_column} (1-based, the end excluded) or null (the first lines are shown, none marked). */
export function wirePresentCode(box, onToggle) {
  let shown = innerHeight >= TALL_PX;
  let painted = "";
  document.addEventListener("keydown", (e) => {
    if (e.key.toLowerCase() !== "c" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    if (!document.body.classList.contains("presenting")) return;
    if (e.target.closest?.("input, textarea, select, [contenteditable]")) return; // typing
    e.preventDefault();
    shown = !shown;
    onToggle();
  });

  return function render(source, span, presenting) {
    const on = presenting && shown && Boolean(source);
    box.hidden = !on;
    if (!on) return;
    const key = `${source}\u0000${span?.line}:${span?.column}:${span?.end_column}`;
    if (painted === key) return;
    painted = key;
    const lines = source.split("\n");
    const at = span?.line ?? 0;
    const first = Math.max(1, Math.min((at || 1) - CONTEXT_LINES, lines.length - 2 * CONTEXT_LINES));
    const last = Math.min(lines.length, first + 2 * CONTEXT_LINES);
    const shownLines = [];
    for (let number = first; number <= last; number++) {
      const text = lines[number - 1];
      const parts = [el("span", { class: "code-no", text: String(number) })];
      if (number === at && span.column && span.end_column > span.column) {
        const [from, to] = [span.column - 1, span.end_column - 1];
        parts.push(text.slice(0, from), el("mark", { text: text.slice(from, to) }), text.slice(to));
      } else parts.push(text);
      shownLines.push(el("span", { class: `code-line${number === at ? " current" : ""}` }, ...parts));
    }
    box.replaceChildren(...shownLines);
  };
}
