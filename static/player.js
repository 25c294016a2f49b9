// A player fed with data already at hand (no server): the offline file and the notebook widget
// both start the stepper this way, from {trace, svg, fold, source, start} as the app wrote it.

import { createStepper } from "./stepper.js";

/** Start the stepper in `root` (the player markup of templates/player.html) on `data`; `start`
 * null opens at the first forward step, {phase, step: null} on the finished picture.
 * options: those of createStepper (onStep is wrapped to keep root.dataset.position). */
export function startPlayer(root, data, options = {}) {
  root.classList.add("controls-full");
  const stepper = createStepper(root, {
    ...options,
    onStep: (info) => {
      root.dataset.position = String(info.position);
      options.onStep?.(info);
    },
  });
  const start = data.start ?? { phase: "forward", step: 0 };
  stepper.load(data.trace, data.svg, data.source, { position: start.step === null ? null : start, fold: data.fold });
  root.dataset.position = String(stepper.position());
  root.dataset.state = "ready";
  return stepper;
}
