// Short links (/s/7kq2m9xa): the Share dialog's short link and its QR code, and presentation
// mode's "Scan to follow" panel (Q). A view is stored once with POST /api/links; when the link
// store cannot be reached, the long link is used instead and the dialog says so.

import { createLink } from "./api.js";
import { stateToQuery } from "./url.js";

const $ = (id) => document.getElementById(id);
const NUMBERS = new Set(["iteration", "step", "decimals", "node"]);
const FLAGS = new Set(["predict", "numeric", "topo"]);
const ON_UNLESS_ZERO = new Set(["over"]); // a flag that is on unless the URL says 0
export const SLIDE_QR_PIXELS = 640; // a third of a 1080p slide's width (docs/classroom.md: Short links)

/** The body of POST /api/links for a page query (url.js writes it): its parameters, typed. */
export function linkBody(query) {
  const body = {};
  for (const [key, value] of new URLSearchParams(query)) {
    if (NUMBERS.has(key)) body[key] = Number(value);
    else if (FLAGS.has(key)) body[key] = value === "1";
    else body[key] = ON_UNLESS_ZERO.has(key) ? value !== "0" : value;
  }
  return body;
}

export const qrSource = (text, options = {}) => `/api/qr.svg?${new URLSearchParams({ text, ...options })}`;

const asked = new Map(); // query → the promise of its answer: a view is stored once per page

/** The short link of a view: resolves {ok: true, url} or {ok: false, message}. */
export function shortLink(query) {
  if (!asked.has(query)) {
    const answer = createLink(linkBody(query)).then((r) => (r.ok ? { ok: true, url: r.body.url } : { ok: false, message: r.error.message }));
    answer.then((r) => r.ok || asked.delete(query)); // a refusal is asked again next time
    asked.set(query, answer);
  }
  return asked.get(query);
}

/** `link` as the text of `element`, breaking (when it must) before /s/ rather than in the id. */
function printLink(element, link) {
  const at = link.lastIndexOf("/s/");
  element.replaceChildren(...(at > 0 ? [link.slice(0, at), document.createElement("wbr"), link.slice(at)] : [link]));
}

/** The Share dialog's short link, QR code (of the short link) and the link under it. */
export async function showShortLink(state, longLink) {
  const field = $("share-short");
  const query = stateToQuery(state, { at: "first" }); // a class follows from the first step
  if (field.dataset.query === query) return;
  field.dataset.query = query;
  field.value = "";
  field.placeholder = "Making a short link…";
  const made = await shortLink(query);
  if (field.dataset.query !== query) return; // the view changed while the link was made
  const link = made.ok ? made.url : longLink;
  field.value = made.ok ? made.url : "";
  field.placeholder = made.ok ? "" : "unavailable: share the full link";
  printLink($("share-qr-link"), made.ok ? made.url : "");
  $("share-qr-note").textContent = made.ok ? "Scan to open this program on a phone, at its first step" : `No short link (${made.message}): this QR code holds the full link.`;
  $("share-qr-slide").href = qrSource(link, { size: SLIDE_QR_PIXELS, caption: "1" });
  const qr = $("share-qr");
  qr.hidden = false;
  qr.src = qrSource(link);
}

/** Presentation mode: Q (or `button`) shows and hides the QR code of the view on screen with
 * its short link in `panel`. `current()` is the page's view, or null before a graph is drawn. */
export function wireScanToFollow(panel, button, presenting, current) {
  const [img, caption] = [panel.querySelector("img"), panel.querySelector(".qr-link")];

  async function toggle() {
    const state = current();
    if (!panel.hidden || !state) {
      panel.hidden = true;
      return;
    }
    const query = stateToQuery(state, { at: "first" });
    const made = await shortLink(query);
    img.src = qrSource(made.ok ? made.url : `${location.origin}/?${query}`);
    printLink(caption, made.ok ? made.url : "the full link (no short link)");
    panel.hidden = false;
  }

  button.addEventListener("click", toggle);
  document.addEventListener("keydown", (e) => {
    if (!presenting() || e.key.toLowerCase() !== "q" || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest?.("input, textarea, select, [contenteditable]")) return;
    e.preventDefault();
    toggle();
  });
}
