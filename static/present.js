// Presentation mode: the graph, the explanation and the step controls alone, fullscreen, in a
// large font for a projector. P starts it; P, Esc (or the browser leaving fullscreen) end it.

export function wirePresentation(button, exitButton, onChange) {
  const presenting = () => document.body.classList.contains("presenting");

  function enter() {
    document.body.classList.add("presenting");
    button.setAttribute("aria-pressed", "true");
    // fullscreen may be refused (an iframe without allow="fullscreen"): the mode works anyway
    document.documentElement.requestFullscreen?.().catch(() => {});
    onChange(true); // the page gives the graph the keys: a clicker's key must step, not press Exit
  }

  function leave() {
    if (!presenting()) return;
    document.body.classList.remove("presenting");
    button.setAttribute("aria-pressed", "false");
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    onChange(false);
    button.focus();
  }

  button.addEventListener("click", () => (presenting() ? leave() : enter()));
  exitButton.addEventListener("click", leave);
  document.addEventListener("fullscreenchange", () => {
    if (!document.fullscreenElement) leave();
  });
  document.addEventListener(
    "keydown",
    (e) => {
      if (e.key === "Escape" && presenting()) {
        e.preventDefault();
        e.stopPropagation();
        leave();
      } else if (e.key.toLowerCase() === "p" && !e.ctrlKey && !e.metaKey && !e.altKey) {
        if (e.target.closest?.("input, textarea, select, [contenteditable]")) return; // typing
        e.preventDefault();
        if (presenting()) leave();
        else enter();
      }
    },
    true,
  );
  return { presenting, leave };
}
