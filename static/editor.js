// The program editor: a plain textarea with a line-number gutter and a highlight layer behind
// it (the current node's source span, an error's, and the line where a learner's engine first
// wrote a wrong gradient). Keys behave as in a code editor.

const INDENT = "    ";

export function createEditor({ textarea, gutter, highlight, onRun, onInput }) {
  let escaped = false; // after Esc, Tab leaves the editor (so keyboard users are never trapped)
  let marks = { span: null, error: null, finding: null };
  let lineCount = 0;
  let lineHeight = null;
  let pendingSpan = null; // the span ({line, column, end_column}) to scroll to in the next frame
  let cutPending = false; // whether the editor's edges are to be checked in the next frame

  let markedLines = []; // gutter rows that carry a class now: only these change per step

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
      markedLines = [];
    }
    for (const el of markedLines) el.classList.remove("error-line", "finding-line", "current-line");
    markedLines = [];
    const rows = gutter.children;
    for (const [span, cls] of [[marks.finding, "finding-line"], [marks.error, "error-line"], [marks.span, "current-line"]]) {
      const el = span ? rows[span.line - 1] : null;
      if (el) {
        el.classList.add(cls);
        markedLines.push(el);
      }
    }
  }

  // Marks are boxes placed by line and column in the monospace grid, inside a layer that moves
  // with the textarea's scroll: no text is laid out again when the step moves.
  const layer = document.createElement("div");
  layer.className = "marks";
  highlight.replaceChildren(layer);
  let metrics = null;

  function measure() {
    const probe = document.createElement("span");
    probe.className = "probe";
    probe.textContent = "M".repeat(100);
    highlight.append(probe);
    const width = probe.getBoundingClientRect().width / 100;
    probe.remove();
    const style = getComputedStyle(textarea);
    const m = {
      char: width,
      line: parseFloat(style.lineHeight) || 20,
      top: parseFloat(style.paddingTop) || 0,
      left: parseFloat(style.paddingLeft) || 0,
    };
    return width > 0 ? m : null;
  }

  function syncHighlight() {
    metrics ??= measure();
    const boxes = [];
    const lines = textarea.value.split("\n");
    for (const [span, cls] of [[marks.finding, "finding-span"], [marks.error, "error-span"], [marks.span, "span"]]) {
      if (!span || !metrics) continue;
      const line = lines[span.line - 1] ?? "";
      const start = visualColumn(line, span.column - 1);
      const stop = visualColumn(line, span.end_column ? span.end_column - 1 : line.length);
      const box = document.createElement("mark");
      box.className = cls;
      box.style.top = `${metrics.top + (span.line - 1) * metrics.line}px`;
      box.style.left = `${metrics.left + start * metrics.char}px`;
      box.style.width = `${Math.max(stop - start, 1) * metrics.char}px`;
      box.style.height = `${metrics.line}px`;
      boxes.push(box);
    }
    layer.replaceChildren(...boxes);
  }

  function syncScroll() {
    layer.style.transform = `translate(${-textarea.scrollLeft}px, ${-textarea.scrollTop}px)`;
    gutter.scrollTop = textarea.scrollTop;
    syncCut();
  }

  // a line longer than the editor is cut at its edge: the edge says so (a shade, app.css), on
  // every system (an overlay scroll bar shows only while scrolling, and a cut with none looks
  // like the end of the line)
  const code = textarea.parentElement;
  function syncCut() {
    const { scrollLeft, scrollWidth, clientWidth } = textarea;
    const left = scrollLeft > 1;
    const right = scrollLeft + clientWidth < scrollWidth - 1;
    if (code.classList.contains("cut-left") !== left) code.classList.toggle("cut-left", left);
    if (code.classList.contains("cut-right") !== right) code.classList.toggle("cut-right", right);
  }
  new ResizeObserver(() => syncCut()).observe(textarea);

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
    marks = { span: marks.span, error: null, finding: null }; // an edit makes them stale
    syncGutter();
    syncHighlight();
    onInput(textarea.value);
    syncCutSoon();
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
      syncCutSoon();
    },
    /** Scroll a span ({line, column, end_column}) or a line into view (a finding activated:
     * its line, wherever the step's span is). */
    reveal(where) {
      scrollToSpan(typeof where === "number" ? { line: where } : where);
    },
    /** Highlight the current node's span, an error's and a finding's ({line, column,
     * end_column}, or null). */
    mark(span, error, finding = null) {
      if (sameSpan(span, marks.span) && sameSpan(error, marks.error) && sameSpan(finding, marks.finding)) return;
      const pointed = finding && !sameSpan(finding, marks.finding); // a finding just pointed at
      marks = { span, error, finding };
      syncGutter();
      syncHighlight();
      const shown = error ?? (pointed ? finding : span);
      if (shown?.line) scrollToSpan(shown);
    },
  };

  /** Scroll the span's line into view, and the span itself when the line is cut at the
   * editor's edge, in the next frame before it is drawn: reading the scroll position now would
   * make the page lay out everything a step has just changed, and again after the rest of the
   * step's writes. */
  function scrollToSpan(span) {
    if (pendingSpan === null) requestAnimationFrame(scrollNow);
    pendingSpan = span;
  }

  function syncCutSoon() {
    if (cutPending) return;
    cutPending = true;
    requestAnimationFrame(() => {
      cutPending = false;
      syncCut();
    });
  }

  function scrollNow() {
    const span = pendingSpan;
    pendingSpan = null;
    lineHeight ??= metrics?.line ?? (parseFloat(getComputedStyle(textarea).lineHeight) || 20);
    const top = (span.line - 1) * lineHeight;
    if (top < textarea.scrollTop || top > textarea.scrollTop + textarea.clientHeight - 2 * lineHeight) {
      textarea.scrollTop = Math.max(0, top - textarea.clientHeight / 3);
    }
    const x = span.column && metrics ? spanColumns(span) : null;
    if (x) {
      // the whole span in sight if it fits (its end two characters clear of the edge), else
      // its start; never scrolled further than that
      const left = metrics.left + x.start * metrics.char;
      const right = metrics.left + x.stop * metrics.char;
      const width = textarea.clientWidth;
      const margin = 2 * metrics.char;
      if (left < textarea.scrollLeft || right > textarea.scrollLeft + width) {
        const end = Math.max(0, right + margin - width);
        textarea.scrollLeft = right - left + 2 * margin <= width ? Math.min(end, left - margin) : left - margin;
      }
    }
    syncScroll();
  }

  /** A span's first and last on-screen columns. */
  function spanColumns(span) {
    const line = textarea.value.split("\n")[span.line - 1] ?? "";
    const start = visualColumn(line, span.column - 1);
    return { start, stop: visualColumn(line, span.end_column ? span.end_column - 1 : line.length) };
  }
}

function sameSpan(a, b) {
  if (!a || !b) return a === b || (!a && !b);
  return a.line === b.line && a.column === b.column && a.end_column === b.end_column;
}

/** The on-screen column of character index `index` in `line` (tabs advance to multiples of 4). */
function visualColumn(line, index) {
  let col = 0;
  for (let i = 0; i < Math.min(index, line.length); i++) col = line[i] === "\t" ? col + 4 - (col % 4) : col + 1;
  return col + Math.max(0, index - line.length);
}
