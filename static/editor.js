// The program editor: a plain textarea with a line-number gutter and a highlight layer behind
// it (the current node's source span, or an error's). Keys behave as in a code editor.

const INDENT = "    ";

export function createEditor({ textarea, gutter, highlight, onRun, onInput }) {
  let escaped = false; // after Esc, Tab leaves the editor (so keyboard users are never trapped)
  let marks = { span: null, error: null };
  let lineCount = 0;

  function syncGutter() {
    const lines = textarea.value.split("\n").length;
    if (lines !== lineCount) {
      lineCount = lines;
      const frag = document.createDocumentFragment();
      for (let i = 1; i <= lines; i++) {
        const span = document.createElement("span");
        span.textContent = `${i}\n`;
        frag.append(span);
      }
      gutter.replaceChildren(frag);
    }
    for (const [i, el] of [...gutter.children].entries()) {
      el.classList.toggle("error-line", marks.error?.line === i + 1);
      el.classList.toggle("current-line", marks.span?.line === i + 1);
    }
  }

  function syncHighlight() {
    const text = textarea.value;
    const ranges = [];
    if (marks.error) ranges.push({ ...offsets(text, marks.error), cls: "error-span" });
    if (marks.span) ranges.push({ ...offsets(text, marks.span), cls: "span" });
    ranges.sort((a, b) => a.start - b.start);
    const frag = document.createDocumentFragment();
    let at = 0;
    for (const r of ranges) {
      if (r.start < at) continue; // overlapping marks: the earlier one wins
      frag.append(text.slice(at, r.start));
      const mark = document.createElement("mark");
      mark.className = r.cls;
      mark.textContent = text.slice(r.start, r.end) || " ";
      frag.append(mark);
      at = r.end;
    }
    frag.append(`${text.slice(at)}\n`);
    highlight.replaceChildren(frag);
    syncScroll();
  }

  function syncScroll() {
    highlight.scrollTop = textarea.scrollTop;
    highlight.scrollLeft = textarea.scrollLeft;
    gutter.scrollTop = textarea.scrollTop;
  }

  function replaceSelection(text, selectStart, selectEnd) {
    // execCommand keeps the browser's undo history; fall back to setRangeText where it is gone
    if (!document.execCommand?.("insertText", false, text)) {
      textarea.setRangeText(text, textarea.selectionStart, textarea.selectionEnd, "end");
      textarea.dispatchEvent(new Event("input"));
    }
    if (selectStart !== undefined) textarea.setSelectionRange(selectStart, selectEnd);
  }

  function indentLines(outdent) {
    const { value, selectionStart: s, selectionEnd: e } = textarea;
    const lineStart = value.lastIndexOf("\n", s - 1) + 1;
    const block = value.slice(lineStart, e);
    const lines = block.split("\n");
    const changed = lines.map((l) => (outdent ? l.replace(/^ {1,4}/, "") : INDENT + l)).join("\n");
    textarea.setSelectionRange(lineStart, e);
    replaceSelection(changed, lineStart, lineStart + changed.length);
  }

  textarea.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      escaped = true;
      return;
    }
    if ((event.key === "Enter" && (event.ctrlKey || event.metaKey)) || (event.key === "Enter" && event.shiftKey)) {
      event.preventDefault();
      onRun();
      return;
    }
    if (event.key === "Tab" && !escaped && !event.ctrlKey && !event.altKey && !event.metaKey) {
      event.preventDefault();
      const multiline = textarea.value.slice(textarea.selectionStart, textarea.selectionEnd).includes("\n");
      if (event.shiftKey || multiline) indentLines(event.shiftKey);
      else replaceSelection(INDENT);
      return;
    }
    if (event.key === "Enter") {
      // keep the current line's indentation, as a code editor does
      const { value, selectionStart: s } = textarea;
      const lineStart = value.lastIndexOf("\n", s - 1) + 1;
      const indent = value.slice(lineStart, s).match(/^[ \t]*/)[0];
      if (indent) {
        event.preventDefault();
        replaceSelection(`\n${indent}`);
      }
    }
    escaped = false;
  });
  textarea.addEventListener("blur", () => {
    escaped = false;
  });
  textarea.addEventListener("input", () => {
    marks = { span: marks.span, error: null }; // an edit makes the old error position stale
    syncGutter();
    syncHighlight();
    onInput(textarea.value);
  });
  textarea.addEventListener("scroll", syncScroll);

  return {
    get value() {
      return textarea.value;
    },
    setValue(text) {
      if (textarea.value !== text) textarea.value = text;
      syncGutter();
      syncHighlight();
    },
    /** Highlight the current node's span and/or an error span ({line, column, end_column}). */
    mark(span, error) {
      if (sameSpan(span, marks.span) && sameSpan(error, marks.error)) return;
      marks = { span, error };
      syncGutter();
      syncHighlight();
      const line = (error ?? span)?.line;
      if (line) scrollToLine(line);
    },
  };

  function scrollToLine(line) {
    const lineHeight = parseFloat(getComputedStyle(textarea).lineHeight) || 20;
    const top = (line - 1) * lineHeight;
    if (top < textarea.scrollTop || top > textarea.scrollTop + textarea.clientHeight - 2 * lineHeight) {
      textarea.scrollTop = Math.max(0, top - textarea.clientHeight / 3);
      syncScroll();
    }
  }
}

function sameSpan(a, b) {
  if (!a || !b) return a === b || (!a && !b);
  return a.line === b.line && a.column === b.column && a.end_column === b.end_column;
}

/** Character offsets in `text` of a 1-based {line, column, end_column} span. */
export function offsets(text, span) {
  const lines = text.split("\n");
  let start = 0;
  for (let i = 0; i < span.line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  const line = lines[span.line - 1] ?? "";
  const col = Math.min(Math.max(span.column - 1, 0), line.length);
  const end = span.end_column ? Math.min(Math.max(span.end_column - 1, col + 1), line.length) : line.length;
  return { start: start + col, end: start + Math.max(end, col) };
}
