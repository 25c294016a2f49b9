// The downloaded, self-contained file (GET /api/graph.html): the same stepper as /embed, fed
// from the data written into the file, so it steps through the program from disk with no
// server and no network. The server inlines this module and its imports (app/draw/offline.py).

import { startPlayer } from "./player.js";

const root = document.querySelector("[data-player]");
const data = JSON.parse(document.getElementById("gradstep-data").textContent);
if (data.theme !== "auto") document.documentElement.dataset.theme = data.theme;
const stepper = startPlayer(root, data);
document.addEventListener("keydown", stepper.onKey);
