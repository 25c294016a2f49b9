// The downloaded, self-contained file (GET /api/graph.html): the same stepper as /embed, fed
// from the data written into the file, so it steps through the program from disk with no
// server and no network. The server inlines this module and its imports (app/draw/offline.py).

import { createStepper } from "./stepper.js";

const root = document.querySelector("[data-player]");
const data = JSON.parse(document.getElementById("gradstep-data").textContent);
if (data.theme !== "auto") document.documentElement.dataset.theme = data.theme;
root.classList.add("controls-full");
const stepper = createStepper(root, {
  onStep: (info) => {
    root.dataset.position = String(info.position);
  },
});
stepper.load(data.trace, data.svg, data.source, { position: data.start ?? { phase: "forward", step: 0 }, fold: data.fold });
document.addEventListener("keydown", stepper.onKey);
root.dataset.position = String(stepper.position());
root.dataset.state = "ready";
