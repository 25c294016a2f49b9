/** The training lab's "Inspect one point" panel: what to do, the chosen point's loss, and the
 * link that opens its graph in the stepper. */

import { CONFIG } from "./config.js";
import { formatNumber } from "./format.js";

/** Rebuilt only when what it shows changed, not at every epoch the page renders. */
export function renderInspectPanel(box, { info, ready, run, theme }) {
  const key = JSON.stringify([info, ready]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  if (!info) {
    const hint = ready
      ? "Click a point on the boundary (or choose its number) to see its loss as a graph in the stepper."
      : "After training (or Stop), click a point to see its loss as a graph in the stepper.";
    box.replaceChildren(paragraph(hint, "hint"));
    return;
  }
  const [x, y] = run.points[info.point];
  const where = `Point ${info.point} at (${formatNumber(x, 3)}, ${formatNumber(y, 3)}), class ${run.labels[info.point]}`;
  if (info.status === "loading") {
    box.replaceChildren(paragraph(`${where}: writing its loss…`, "hint"));
  } else if (info.status === "error") {
    box.replaceChildren(paragraph(where), paragraph(info.message, "inspect-error"));
  } else {
    const loss = document.createElement("p");
    loss.append(`${where}. Its loss: `);
    const value = document.createElement("output");
    value.id = "inspect-loss";
    value.textContent = formatNumber(info.loss, CONFIG.decimals);
    value.dataset.value = String(info.loss);
    loss.append(value);
    loss.append(` (a graph of ${info.values} values; the L2 term is the same for every point and left out)`);
    const link = document.createElement("a");
    link.id = "inspect-open";
    link.className = "button primary";
    link.href = info.url + (theme !== "auto" ? `&theme=${theme}` : "");
    link.target = "_blank";
    link.rel = "noopener";
    link.textContent = "Open in the stepper ↗";
    box.replaceChildren(loss, link);
  }
}

function paragraph(text, className = "") {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  return p;
}
