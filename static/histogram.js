// A live class's answers as a histogram, drawn from the server's `histogram` (app/classroom/
// tally.py: bins, below, above, true, correct, signs): nothing is counted again here, so the
// teacher's screen, the students' and the CSV say the same. Plain DOM, text as textContent.

import { el } from "./explain.js";
import { MINUS, formatNumber, trimZeros } from "./format.js";

const SIGN_LABELS = { "+": "+", "-": MINUS, 0: "0" };

/** ``x``, a sum of the true value and multiples of the bin ``width``, as a person writes it:
 * rounding's residue (2.2e−16 where the sum is 0) is 0. */
const snapped = (x, width) => (Math.abs(x) < width * 1e-9 ? 0 : x);

/** A bin's centre, as short as it reads: to the bin width's precision (one more decimal than
 * its first digit, 2 at most), no trailing zeros. */
function short(x, width) {
  const decimals = Math.min(2, Math.max(0, Math.ceil(-Math.log10(width)) + 1));
  return trimZeros(formatNumber(snapped(x, width), decimals));
}

function column(label, count, most, { truth = false, title = "", minor = false } = {}) {
  const bar = el("span", { class: "hist-bar" });
  bar.style.height = `${most ? (100 * count) / most : 0}%`; // the CSSOM: no inline style (CSP)
  const col = el("div", { class: `hist-col${truth ? " hist-true" : ""}${minor ? " hist-minor" : ""}`, title },
    el("span", { class: "hist-stack" }, el("span", { class: "hist-count", text: String(count) }), bar),
    el("span", { class: "hist-label", text: label }));
  col.dataset.count = String(count);
  return col;
}

/** A figure: `histogram` for question `name` ("a.grad"), headed `heading` ("Round 1"). */
export function histogramFigure(histogram, name, heading, decimals = 4) {
  const h = histogram;
  const figure = el("figure", { class: `histogram hist-${h.kind}` });
  figure.dataset.count = String(h.count);
  figure.dataset.correct = String(h.correct);
  let columns;
  let truth;
  if (h.kind === "sign") {
    const most = Math.max(1, ...Object.values(h.signs));
    columns = ["+", "-", "0"].map((s) => column(SIGN_LABELS[s], h.signs[s] ?? 0, most, { truth: s === h.true }));
    truth = SIGN_LABELS[h.true] ?? h.true;
  } else {
    const most = Math.max(1, h.below, h.above, ...h.bins.map((b) => b.count));
    const middle = Math.floor(h.bins.length / 2);
    const edge = (x) => formatNumber(snapped(x, h.width), decimals);
    columns = [
      column("<", h.below, most, { title: `below ${edge(h.bins[0].from)}` }),
      ...h.bins.map((b, i) => column(short((b.from + b.to) / 2, h.width), b.count, most, { truth: i === middle, minor: (i - middle) % 2 !== 0, title: `${edge(b.from)} to ${edge(b.to)}` })),
      column(">", h.above, most, { title: `above ${edge(h.bins[h.bins.length - 1].to)}` }),
    ];
    truth = formatNumber(h.true, decimals);
  }
  const bars = el("div", { class: "hist-bars", role: "img", "aria-label": `${h.count} answers; ${columns.map((c) => `${c.lastChild.textContent}: ${c.dataset.count}`).join(", ")}` }, ...columns);
  const marked = el("p", { class: "hist-truth" }, el("span", { class: "hist-key", "aria-hidden": "true" }), `true ${name} = `, el("strong", { text: truth }));
  const score = h.kind === "sign" ? `${h.correct} of ${h.count} right` : `${h.correct} of ${h.count} right · signs + ${h.signs["+"]}, ${MINUS} ${h.signs["-"]}, 0 ${h.signs["0"]}`;
  figure.append(el("figcaption", { class: "hist-heading", text: heading }), bars, marked, el("p", { class: "hist-score", text: score }));
  return figure;
}

/** Every revealed round of a question, side by side: {round: histogram}. */
export function histogramRounds(rounds, name, decimals = 4) {
  const numbers = Object.keys(rounds).map(Number).sort((a, b) => a - b);
  return numbers.map((n) => histogramFigure(rounds[n], name, numbers.length > 1 || n > 1 ? `Vote ${n}` : "Answers", decimals));
}
