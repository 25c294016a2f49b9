// The program beside the graph in Present mode (Python Tutor's strength): its lines, the line
// that made the step's value marked and kept in sight, so a class sees which line it is; C
// hides and shows it. Plain DOM, text as textContent.

import { el } from "./explain.js";

/** Wire `box` (a <pre>); returns render(source, span, presenting): span is {line, column,
 * end_column} (1-based, the end excluded) or null. */
export function wirePresentCode(box, onToggle) {
  let shown = true;
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
    document.body.classList.toggle("present-code-on", on);
    if (!on) return;
    const key = `${source}\u0000${span?.line}:${span?.column}:${span?.end_column}`;
    if (painted === key) return;
    painted = key;
    const at = span?.line ?? 0;
    box.replaceChildren(...source.split("\n").map((text, i) => {
      const number = i + 1;
      const parts = [el("span", { class: "code-no", text: String(number) })];
      if (number === at && span.column && span.end_column > span.column) {
        const [from, to] = [span.column - 1, span.end_column - 1];
        parts.push(text.slice(0, from), el("mark", { text: text.slice(from, to) }), text.slice(to));
      } else parts.push(text);
      return el("span", { class: `code-line${number === at ? " current" : ""}` }, ...parts);
    }));
    const current = box.querySelector(".current");
    box.scrollTop = current ? Math.max(0, current.offsetTop - box.clientHeight / 2) : 0;
  };
}
