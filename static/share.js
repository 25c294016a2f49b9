// The Share dialog: a link, embed snippets (iframe, reveal.js), a Markdown image of this step,
// the short link and its QR code for phones (short-link.js), and the downloads (PNG, SVG, ZIP of every step, GIF, offline HTML).
// Its markup is in templates/index.html; shareLinks (pure) writes every text it shows.

import { wireSlowDownloads } from "./downloads.js";
import { shareLinks } from "./share-links.js";
import { showShortLink } from "./short-link.js";

const $ = (id) => document.getElementById(id);

/** `current()` returns {state, steps} (the page's state and the total number of steps). */
export function wireShare(button, current) {
  const dialog = $("share-dialog");
  let status = null;

  function fill() {
    const { state, steps } = current();
    const links = shareLinks(location.origin, state, {
      controls: $("share-controls").value,
      theme: $("share-theme").value,
      scale: Number($("share-scale").value),
      steps,
      delay: Number($("share-delay").value),
    });
    for (const field of dialog.querySelectorAll("[data-share]")) field.value = links[field.dataset.share];
    for (const a of dialog.querySelectorAll("[data-download]")) a.href = links[a.dataset.download];
    showShortLink(state, links.link); // the short link and its QR code
  }

  function say(text) {
    $("share-status").textContent = text;
    clearTimeout(status);
    status = setTimeout(() => {
      $("share-status").textContent = "";
    }, 2500);
  }

  async function copy(field) {
    try {
      await navigator.clipboard.writeText(field.value);
      say(`Copied: ${field.dataset.name}`);
    } catch {
      field.select(); // no clipboard access (an insecure origin): the text is selected instead
      say("Press Ctrl+C (⌘C) to copy the selected text");
    }
  }

  button.addEventListener("click", () => {
    if (!current()) return;
    fill();
    dialog.showModal();
  });
  for (const id of ["share-controls", "share-theme", "share-scale", "share-delay"]) $(id).addEventListener("change", fill);
  dialog.addEventListener("click", (e) => {
    const target = e.target.closest("[data-copy]");
    if (target) copy($(target.dataset.copy));
    else if (e.target === dialog) dialog.close(); // a click on the backdrop
  });
  $("share-qr").addEventListener("error", () => {
    $("share-qr").hidden = true;
    $("share-qr-note").textContent = "This link is too long for a QR code: shorten the program or share the link.";
  });
  // the page steps on arrow keys: inside the dialog they belong to its controls
  dialog.addEventListener("keydown", (e) => e.stopPropagation());
  const slow = dialog.querySelectorAll('[data-download="zip"], [data-download="gif"]');
  wireSlowDownloads(slow, $("share-status"), (kind) => current()?.frames[kind] ?? "the");
}
