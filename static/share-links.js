// The links and snippets the Share dialog offers, from the page's state. Pure: no DOM, so every
// snippet can be checked as text.

import { stateToQuery } from "./url.js";

export const FRAME = Object.freeze({ width: 800, height: 500 });

function escapeAttr(text) {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/** The query of the graph alone (what /api/graph.* take): no page settings. */
function graphQuery(state, extra = {}) {
  const q = new URLSearchParams();
  q.set("source", state.source);
  if (state.values && Object.keys(state.values).length) q.set("values", JSON.stringify(state.values));
  for (const [k, v] of Object.entries(extra)) if (v !== null && v !== undefined) q.set(k, String(v));
  return q.toString();
}

/**
 * Everything the dialog shows for `state` served from `origin`:
 * {link, embed, iframe, reveal, markdown, png, svg, zip, gif, html}.
 * `options`: {controls: "full"|"minimal"|"none", theme: "light"|"dark", steps: total steps,
 * delay: ms per GIF frame}.
 */
export function shareLinks(origin, state, options) {
  const query = stateToQuery(state);
  const link = `${origin}/?${query}`;
  const embedQuery = new URLSearchParams(query);
  if (options.controls !== "full") embedQuery.set("controls", options.controls);
  if (options.theme !== "auto") embedQuery.set("theme", options.theme);
  else embedQuery.delete("theme");
  const embed = `${origin}/embed?${embedQuery}`;
  const title = `gradstep: ${state.phase} step ${state.step + 1}`;
  const iframe = `<iframe src="${escapeAttr(embed)}" width="${FRAME.width}" height="${FRAME.height}" title="${escapeAttr(title)}" allow="fullscreen" style="border:0"></iframe>`;
  const imageTheme = options.theme === "dark" ? "dark" : "light";
  const stepImage = graphQuery(state, { phase: state.phase, step: state.step, theme: imageTheme });
  const png = `${origin}/api/graph.png?${stepImage}`;
  // in a deck the graph starts at the first step and each fragment moves it one step on
  const revealQuery = new URLSearchParams(embedQuery);
  revealQuery.delete("phase");
  revealQuery.delete("step");
  revealQuery.set("controls", "minimal");
  const fragments = Math.max(0, options.steps - 1);
  const reveal = [
    `<section>`,
    `  <iframe class="gradstep" data-src="${escapeAttr(`${origin}/embed?${revealQuery}`)}" width="960" height="600" style="border:0"></iframe>`,
    `  <!-- one fragment per step: the deck's → and clicker step the graph -->`,
    `  ${'<span class="fragment"></span>'.repeat(fragments)}`,
    `</section>`,
    `<!-- once per deck, after Reveal.initialize(...) -->`,
    `<script>`,
    `  const gradstep = (e, command) => e.fragment.closest("section")`,
    `    .querySelector("iframe.gradstep")?.contentWindow.postMessage({ command }, "*");`,
    `  Reveal.on("fragmentshown", (e) => gradstep(e, "next"));`,
    `  Reveal.on("fragmenthidden", (e) => gradstep(e, "prev"));`,
    `</script>`,
  ].join("\n");
  return {
    link,
    embed,
    iframe,
    reveal,
    markdown: `![${title}](${png})`,
    png,
    svg: `${origin}/api/graph.svg?${stepImage}`,
    zip: `${origin}/api/graph.zip?${graphQuery(state, { theme: imageTheme })}`,
    gif: `${origin}/api/graph.gif?${graphQuery(state, { theme: imageTheme, delay: options.delay })}`,
    html: `${origin}/api/graph.html?${graphQuery(state, { theme: options.theme === "auto" ? null : options.theme, phase: state.phase, step: state.step })}`,
  };
}
