// The stepping keys, for a keydown listener on the document: PageDown / PageUp (what a
// presentation clicker sends), → / ←, Home, End, Space, + − 0 (zoom), [ and ] (a training
// loop's previous and next iteration), and . or B (the next iteration at the same step: the
// third button of most clickers, their "black screen", sends one of them). They step whenever the
// user is not typing: a slider or a number field keeps its arrows but not PageUp/PageDown.

/** Handle `e` for `stepper`; `release(reason)`: the embed hands the keys back to its deck past
 * either end of the walk (and on Escape); without it the page keeps ↑ and ↓ for scrolling.
 * Returns whether the key was the stepper's (the notebook widget stops those from reaching
 * Jupyter's own shortcuts). */
export function onStepKey(e, stepper, release = null) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return false;
  const t = e.target;
  const editor = t instanceof HTMLTextAreaElement || t?.isContentEditable;
  const field = t instanceof HTMLInputElement && !["checkbox", "radio", "button", "submit", "reset"].includes(t.type);
  const control = field || t instanceof HTMLSelectElement;
  if (e.key === "PageDown" || e.key === "PageUp") {
    if (editor) return false; // the program's own page keys
  } else if (editor || control) return false; // arrows, Home, End, Space belong to the field
  switch (e.key) {
    case "ArrowRight":
    case "ArrowDown":
    case "PageDown":
      if (e.key === "ArrowDown" && !release) return false;
      e.preventDefault();
      if (release && stepper.atEnd()) release("end");
      else stepper.next({ clicker: e.key === "PageDown" });
      break;
    case "ArrowLeft":
    case "ArrowUp":
    case "PageUp":
      if (e.key === "ArrowUp" && !release) return false;
      e.preventDefault();
      if (release && stepper.position() <= 0 && !stepper.state.quiz) release("start");
      else stepper.prev({ clicker: e.key === "PageUp" });
      break;
    case "Home":
      e.preventDefault();
      stepper.goTo(0);
      break;
    case "End":
      e.preventDefault();
      stepper.goTo(Number.MAX_SAFE_INTEGER);
      break;
    case " ":
      if (t instanceof HTMLButtonElement || control) return false;
      e.preventDefault();
      stepper.togglePlay();
      break;
    case "Escape":
      if (!release) return false;
      e.preventDefault();
      release("escape");
      break;
    case "+":
    case "=":
      e.preventDefault();
      stepper.zoom(1.25);
      break;
    case "-":
      e.preventDefault();
      stepper.zoom(0.8);
      break;
    case "0":
      e.preventDefault();
      stepper.whole();
      break;
    case "[":
    case "]":
    case ".":
    case "b":
    case "B":
      if (!stepper.iterate(e.key === "[" ? -1 : 1)) return false;
      e.preventDefault();
      break;
    default:
      return false;
  }
  return true;
}
