// The links and snippets the Share dialog offers, from the page's state. Pure: no DOM, so every
// snippet can be checked as text.

import { stateToQuery } from "./url.js";

export const FRAME = Object.freeze({ width: 800, height: 500 });

/** Once per reveal.js deck: each gradstep frame shows the step of its slide's fragments, also
 * when the deck comes back to the slide (reveal reloads the frame), when a key was pressed
 * while the frame was still loading, and in the print view (each copy of the slide is a page
 * with its own fragments shown): a frame that is ready asks where to be. */
export const REVEAL_SCRIPT = `<!-- once per deck, after Reveal.initialize(...) -->
<script>
  const gradstepStep = (section) => section.querySelectorAll(".fragment.visible").length;
  const gradstep = (section) => section?.querySelectorAll("iframe.gradstep").forEach((frame) =>
    frame.contentWindow?.postMessage({ command: "goto", step: gradstepStep(section) }, "*"));
  for (const name of ["fragmentshown", "fragmenthidden"]) {
    Reveal.on(name, (e) => gradstep(e.fragment.closest("section")));
  }
  Reveal.on("slidechanged", (e) => gradstep(e.currentSlide));
  addEventListener("message", (e) => {
    if (e.data?.source !== "gradstep" || e.data.event !== "ready") return;
    const frame = [...document.querySelectorAll("iframe.gradstep")]
      .find((f) => f.contentWindow === e.source);
    if (frame) gradstep(frame.closest("section"));
  });
  // the print view copies each slide per fragment but loads no data-src frame: load them
  Reveal.on("pdf-ready", () => document.querySelectorAll("iframe.gradstep[data-src]")
    .forEach((frame) => { frame.src ||= frame.dataset.src; }));
</script>`;

function escapeAttr(text) {
  return text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;");
}

/** The query of the graph alone (what /api/graph.* take): no page settings. */
function graphQuery(state, extra = {}) {
  const q = new URLSearchParams();
  q.set("source", state.source);
  if (state.values && Object.keys(state.values).length) q.set("values", JSON.stringify(state.values));
  if (state.engine === "gradstep") q.set("engine", "gradstep"); // whose Value built the graph
  if (Number.isInteger(state.iteration)) q.set("iteration", String(state.iteration)); // a training loop's
  for (const [k, v] of Object.entries(extra)) if (v !== null && v !== undefined) q.set(k, String(v));
  return q.toString();
}

/**
 * Everything the dialog shows for `state` served from `origin`:
 * {link, stepLink, embed, iframe, reveal, markdown, png, svg, zip, gif, html}. The link and
 * the embeds start at the first step (a class, or a deck, walks from the start); stepLink opens
 * this exact step.
 * `options`: {controls: "full"|"minimal"|"none", theme: "light"|"dark", scale: the embeds'
 * text size (1 as on the page), steps: total steps, delay: ms per GIF frame}.
 */
export function shareLinks(origin, state, options) {
  const query = stateToQuery(state, { at: false });
  const link = `${origin}/?${stateToQuery(state, { at: "first" })}`; // for students
  const stepLink = `${origin}/?${stateToQuery(state)}`;
  const embedQuery = new URLSearchParams(query);
  if (options.controls !== "full") embedQuery.set("controls", options.controls);
  if (options.theme !== "auto") embedQuery.set("theme", options.theme);
  else embedQuery.delete("theme");
  // the embed's text size (embed-options.js): on a slide the graph's text reads from the back
  if (options.scale && options.scale !== 1) embedQuery.set("scale", String(options.scale));
  const embed = `${origin}/embed?${embedQuery}`;
  const title = `gradstep: ${state.phase} step ${state.step + 1}`;
  const iframe = `<iframe src="${escapeAttr(embed)}" width="${FRAME.width}" height="${FRAME.height}" title="${escapeAttr(title)}" allow="fullscreen" style="border:0"></iframe>`;
  const imageTheme = options.theme === "dark" ? "dark" : "light";
  const stepImage = graphQuery(state, { phase: state.phase, step: state.step, theme: imageTheme });
  const png = `${origin}/api/graph.png?${stepImage}`;
  // in a deck the graph starts at the first step and each fragment moves it one step on
  const revealQuery = new URLSearchParams(embedQuery);
  revealQuery.set("controls", "minimal");
  const fragments = Math.max(0, options.steps - 1);
  const reveal = [
    `<section>`,
    `  <iframe class="gradstep" data-src="${escapeAttr(`${origin}/embed?${revealQuery}`)}" width="960" height="600" style="border:0"></iframe>`,
    `  <!-- one fragment per step: the deck's → and clicker step the graph -->`,
    `  ${'<span class="fragment"></span>'.repeat(fragments)}`,
    `</section>`,
    REVEAL_SCRIPT,
  ].join("\n");
  return {
    link,
    stepLink,
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
