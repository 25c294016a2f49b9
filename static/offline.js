// The downloaded, self-contained file (GET /api/graph.html): the same player as /embed, fed
// from the data written into the file, so it steps through the program from disk with no
// server and no network. The server inlines this module and its imports (app/offline.py).

import { createPlayer, playerKeys } from "./player.js";

const root = document.querySelector("[data-player]");
const data = JSON.parse(document.getElementById("gradstep-data").textContent);
if (data.theme !== "auto") document.documentElement.dataset.theme = data.theme;
root.classList.add("controls-full");
const player = createPlayer(root, {
  trace: data.trace,
  svg: data.svg,
  source: data.source,
  decimals: 4,
  scale: 1,
  start: data.start,
  onStep: (info) => {
    root.dataset.position = String(info.position);
  },
});
document.addEventListener("keydown", playerKeys(player, () => document.activeElement?.blur?.()));
new ResizeObserver(() => player.refit()).observe(root.querySelector('[data-part="graph"]'));
root.dataset.position = String(player.position);
root.dataset.state = "ready";
