// Pointer input on the graph's frame: drag to pan, wheel to zoom, a click (a press that did not
// move) to select a value or open and fold a call. What each does is the stepper's to say.

const DRAG_PX = 4; // a press that moves less than this is a click

/** handlers: {active(), pan(dx, dy), zoom(factor, x, y), click(target)}. */
export function wireGraphInput(view, handlers) {
  let drag = null;
  view.addEventListener("pointerdown", (e) => {
    if (handlers.active() && e.button === 0) drag = { x: e.clientX, y: e.clientY, moved: 0, id: e.pointerId };
  });
  view.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    drag.moved += Math.abs(dx) + Math.abs(dy);
    if (drag.moved > DRAG_PX) {
      if (!view.hasPointerCapture(e.pointerId)) view.setPointerCapture(e.pointerId);
      view.classList.add("panning");
      handlers.pan(dx, dy);
    }
    drag.x = e.clientX;
    drag.y = e.clientY;
  });
  const end = (e) => {
    if (!drag) return;
    const click = drag.moved <= DRAG_PX && e.type === "pointerup";
    drag = null;
    view.classList.remove("panning");
    if (click) handlers.click(e.target);
  };
  view.addEventListener("pointerup", end);
  view.addEventListener("pointercancel", end);
  view.addEventListener(
    "wheel",
    (e) => {
      if (!handlers.active()) return;
      e.preventDefault();
      handlers.zoom(Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY);
    },
    { passive: false },
  );
}
