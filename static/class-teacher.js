// A live class from the teacher's page (docs/classroom.md, "A live class"): Start a class posts
// the program on screen (POST /api/classes), then every step, phase, fold, value, iteration and
// program change is posted as the class's position, in order, the last one winning; Pause, roam,
// questions, reveal, a second vote, the CSV and the end are the teacher's commands. The teacher
// key lives in this tab's sessionStorage; /c/{code}#key=… (the teacher's link) leads back here.

import { askAgain, classCommand, classEvents, classQrUrl, endClass, fetchAnswersCsv, fetchStudents, lockQuestion, revealQuestion, startClass } from "./api.js";
import { el } from "./explain.js";
import { histogramRounds } from "./histogram.js";
import { stepAt, toTimeline } from "./model.js";

const $ = (id) => document.getElementById(id);
export const TEACHER_KEY = "gradstep-teacher"; // sessionStorage: {code, key}
const POSITION_DEBOUNCE_MS = 60;
const ROSTER_MS = 3_000; // how often the teacher's list of students is asked for

/** The class the teacher's tab holds ({code, key}), or null. */
export function heldClass() {
  try {
    const held = JSON.parse(sessionStorage.getItem(TEACHER_KEY) ?? "null");
    return held && typeof held.code === "string" && typeof held.key === "string" ? held : null;
  } catch {
    return null;
  }
}

/** Group a code for reading aloud: "k7m2p9x4qa" → "k7m2 p9x4 qa". */
export const spacedCode = (code) => code.replace(/(.{4})(?=.)/g, "$1 ");

/**
 * `view()`: the page's {source, values, position} or null before a graph is drawn;
 * `stepper`: the page's; `presenting()`: whether Present mode is on.
 */
export function wireClassroom({ stepper, view, presenting }) {
  const cls = { code: null, key: null, program: null, sent: "", latest: null, chain: Promise.resolve(), timer: null, paused: false, roam: false, ahead: false, question: null, round: 0, rounds: {}, count: 0, open: false, locked: false, qr: true, events: null, folded: false, roster: null, rosterTimer: null };

  const status = (text) => { $("class-status").textContent = text; };

  function render() {
    const on = cls.code !== null;
    document.body.classList.toggle("class-on", on);
    $("class-start").hidden = on;
    $("present-class").hidden = on;
    $("class-bar").hidden = !on;
    if (!on) {
      $("class-side").hidden = true;
      return;
    }
    $("class-code").textContent = spacedCode(cls.code);
    const pause = $("class-pause");
    pause.setAttribute("aria-pressed", String(cls.paused));
    pause.textContent = cls.paused ? "Resume" : "Pause";
    const roam = $("class-roam");
    roam.setAttribute("aria-pressed", String(cls.roam));
    roam.textContent = cls.roam ? "Follow me" : "Let students roam";
    $("class-roam-to").hidden = !cls.roam;
    $("class-roam-to").value = cls.ahead ? "anywhere" : "here";
    renderAsk();
    const q = cls.question;
    $("class-count").textContent = q ? `${cls.count} ${cls.count === 1 ? "answer" : "answers"}${cls.open ? "" : " · closed"}` : "";
    $("class-count").hidden = !q;
    // one of the two in the same place, as R does: Reveal while answers come in or are stopped,
    // then Ask again (the focus goes from the one pressed to the one that takes its place)
    const [lock, reveal, again] = [$("class-lock"), $("class-reveal"), $("class-again")];
    const pressed = [lock, reveal, again].find((b) => b === document.activeElement);
    const unrevealed = cls.open || cls.locked;
    lock.hidden = !q || !cls.open;
    reveal.hidden = !q || !unrevealed;
    again.hidden = !q || unrevealed;
    if (pressed?.hidden) [reveal, again, $("graph-view")].find((b) => !b.hidden).focus({ preventScroll: true });
    // the answers once revealed, until the teacher steps on (or hides them); a second vote is
    // not swayed by the first's histogram, nor shown it before its own reveal
    const shown = Object.keys(cls.rounds).length > 0 && !cls.open && !cls.locked && !cls.folded;
    $("class-results").hidden = !shown;
    const asking = Boolean(q) && (cls.open || cls.locked);
    $("class-asking").hidden = !asking;
    if (asking) {
      $("class-asking-question").textContent = `${cls.round > 1 ? `Vote ${cls.round}: w` : "W"}hat is ${q.name}${q.kind === "sign" ? ": +, − or 0" : ""}?`;
      $("class-asking-how").textContent = cls.open ? "Answer on your phone" : "Answers are closed";
      $("class-asking-count").textContent = $("class-count").textContent;
    }
    $("class-qr-figure").hidden = shown || asking || !cls.qr;
    $("class-side").hidden = !shown && !asking && !cls.qr;
    document.body.classList.toggle("class-asking-on", asking);
    $("class-qr-toggle").setAttribute("aria-pressed", String(cls.qr));
    document.body.classList.toggle("class-results-on", shown);
    document.body.classList.toggle("class-qr-on", !shown && !asking && cls.qr);
    place();
    document.body.classList.toggle("class-two-votes", Object.keys(cls.rounds).length > 1);
  }

  /** The class's panel (its QR code, or the answers) takes the screen under the class's bar
   * (and under a training loop's strip: its loss plot, iteration and › stay in sight) and above
   * the graph's tools (zoom, Fit, folding), which stay in reach: where those are, for the CSS
   * (--class-top, --class-left, --class-bottom). */
  function place() {
    const bar = $("class-bar").getBoundingClientRect();
    const strip = $("iterations");
    const above = strip.hidden ? bar.bottom : Math.max(bar.bottom, strip.getBoundingClientRect().bottom);
    const tools = document.querySelector(".stage > .graph-bar").getBoundingClientRect();
    const edges = {
      "--class-top": above + 8,
      "--class-left": bar.left,
      "--class-bottom": tools.height ? innerHeight - tools.top + 4 : 8,
    };
    const root = document.documentElement.style;
    for (const [name, px] of Object.entries(edges)) {
      const value = `${Math.round(px)}px`;
      if (root.getPropertyValue(name) !== value) root.setProperty(name, value);
    }
  }
  const placing = new ResizeObserver(place);
  placing.observe($("class-bar"));
  placing.observe($("iterations"));
  placing.observe(document.querySelector(".stage > .graph-bar"));
  addEventListener("resize", place);

  /** Ask about the node whose grad the step on screen computes (a backward step's). */
  function renderAsk() {
    const { state } = stepper;
    const select = $("class-node");
    const step = state.model && state.phase === "backward" ? stepAt(state.model, "backward", state.step) : null;
    const nodes = step ? step.changes.filter((c) => c.value !== null && c.value !== undefined).map((c) => c.node) : [];
    const key = nodes.join(",");
    if (select.dataset.nodes !== key) {
      select.dataset.nodes = key;
      select.replaceChildren(...nodes.map((id) => el("option", { value: String(id), text: state.model.byId[id].grad_name })));
    }
    select.hidden = nodes.length < 2;
    $("class-ask").disabled = !nodes.length;
    $("class-ask").title = nodes.length ? `Ask the class for ${state.model.byId[nodes[0]].grad_name}${nodes.length > 1 ? " (or the grad chosen beside)" : ""} (A)` : "At a backward step: ask the class for the grad it computes";
    $("class-ask").textContent = nodes.length === 1 ? `Ask: ${state.model.byId[nodes[0]].grad_name}?` : "Ask the class";
  }

  /** While the class answers, the projected step is shown as before it (predict mode's
   * picture: the step's node and edges lit, its grads not yet), so the screen does not answer
   * the question; Reveal shows it. Next (or the clicker) goes past the question instead. */
  function withhold() {
    const { state } = stepper;
    if (state.phase !== "backward" || !cls.question) return;
    stepper.setState({ quiz: { class: true, step: state.step, question: `The class is asked: what is ${cls.question.name}?`, asks: [] } });
  }

  function pastQuestion() {
    stepper.setState({ quiz: null });
    return stepper.next();
  }

  /* ---------- the position, posted in order, the last one winning ---------- */

  function sync() {
    render();
    if (cls.code === null) return;
    const shown = view();
    if (!shown) return;
    if (stepper.opening() === "finished") {
      // a program run (again) opens on its finished picture, and Page Up from the first step
      // goes back to it: every grad, every answer. A class is taken from the first step, as a
      // new class is (End shows the last step on purpose); goTo renders, and that syncs it
      return void stepper.goTo(0);
    }
    const key = JSON.stringify(shown);
    if (key === JSON.stringify(cls.latest)) return;
    if (cls.latest && !cls.folded && Object.keys(cls.rounds).length) { // stepping on: the graph again
      cls.folded = true;
      render();
    }
    cls.latest = shown;
    clearTimeout(cls.timer);
    cls.timer = setTimeout(flush, POSITION_DEBOUNCE_MS);
  }

  function flush() {
    clearTimeout(cls.timer);
    cls.chain = cls.chain.then(sendLatest);
    return cls.chain;
  }

  async function sendLatest() {
    const shown = cls.latest;
    if (!shown || cls.code === null) return;
    if (shown.source !== cls.program) { // the teacher ran another program: the class gets it
      const changed = await classCommand(cls.code, cls.key, "program", { source: shown.source, values: shown.values });
      if (!changed.ok) return status(`The class keeps its program: ${changed.error.message}`);
      cls.program = shown.source;
      cls.sent = "";
      cls.question = null;
      cls.rounds = {};
    }
    const key = JSON.stringify(shown.position);
    if (key === cls.sent) return;
    cls.sent = key;
    const moved = await classCommand(cls.code, cls.key, "position", shown.position);
    if (!moved.ok) {
      cls.sent = "";
      if (moved.error.kind === "not_found") return forget("The class has ended (closed or expired).");
      status(`Students did not move: ${moved.error.message}`);
    } else if ($("class-status").textContent.startsWith("Students did not")) status("");
  }

  /* ---------- starting, resuming, ending ---------- */

  function hold(code, key, program) {
    Object.assign(cls, { code, key, program, sent: "", latest: null, paused: false, roam: false, ahead: false, question: null, round: 0, rounds: {}, count: 0, open: false, locked: false, qr: true });
    listen();
    sessionStorage.setItem(TEACHER_KEY, JSON.stringify({ code, key }));
    clearInterval(cls.rosterTimer);
    cls.roster = null;
    cls.rosterTimer = setInterval(roster, ROSTER_MS);
    roster();
    $("class-qr").src = classQrUrl(code); // the address is printed under the code
    $("scan-panel").hidden = true; // the class's own QR code replaces the copy's
    sync();
  }

  async function start() {
    const shown = view();
    if (!shown) return status("Run a program first: the class follows the graph on screen.");
    $("class-start").disabled = true;
    const made = await startClass(shown.source, shown.values);
    $("class-start").disabled = false;
    if (!made.ok) {
      $("class-start-error").textContent = `No class: ${made.error.message}`;
      $("class-start-error").hidden = false;
      return;
    }
    $("class-start-error").hidden = true;
    // a class begins at the first forward step, whatever the page showed (a run program opens
    // on its finished picture: every grad, before the first question); the clicker goes on
    stepper.setState({ quiz: null });
    stepper.goTo(0);
    hold(made.body.code, made.body.teacher_key, shown.source);
    $("graph-view").focus({ preventScroll: true }); // the clicker steps at once
  }

  /** Go on with a class this tab holds (after a reload, or from the teacher's link): the page
   * has drawn its program at its position; `snapshot` is GET /api/classes/{code}. */
  function resume(held, snapshot) {
    hold(held.code, held.key, snapshot.program.source);
    cls.paused = snapshot.position.paused;
    cls.roam = snapshot.position.roam;
    cls.ahead = snapshot.position.roam_ahead;
    status("Class resumed.");
    render();
  }

  function forget(message) {
    sessionStorage.removeItem(TEACHER_KEY);
    clearInterval(cls.rosterTimer);
    $("class-roster").hidden = true;
    $("class-students").setAttribute("aria-expanded", "false");
    cls.events?.close();
    cls.events = null;
    cls.code = null;
    render();
    status(message);
    $("class-start").focus();
  }

  async function end() {
    if (!confirmEnd()) return;
    const ended = await endClass(cls.code, cls.key);
    if (!ended.ok && ended.error.kind !== "not_found") return status(`Not ended: ${ended.error.message}`);
    forget("Class ended: its answers are deleted.");
  }

  // a second press within 4 s ends it: no dialog to dismiss with a clicker
  let armed = 0;
  function confirmEnd() {
    if (Date.now() - armed < 4000) return true;
    armed = Date.now();
    $("class-end").textContent = "End class? Press again";
    setTimeout(() => { $("class-end").textContent = "End class"; }, 4000);
    return false;
  }

  /* ---------- the teacher's commands ---------- */

  async function toggle(what) {
    const on = !cls[what];
    const done = await classCommand(cls.code, cls.key, what === "paused" ? "pause" : "roam", what === "paused" ? { paused: on } : { roam: on, ahead: cls.ahead });
    if (!done.ok) return status(done.error.message);
    cls[what] = on;
    render();
  }

  /** How far roaming students may step: up to the teacher's step (it moves with the teacher),
   * or anywhere in the program. */
  async function roamTo(ahead) {
    const done = await classCommand(cls.code, cls.key, "roam", { roam: cls.roam, ahead });
    if (!done.ok) return status(done.error.message);
    cls.ahead = ahead;
    render();
  }

  async function ask() {
    const select = $("class-node");
    const node = Number(select.hidden ? select.dataset.nodes.split(",")[0] : select.value);
    if (!Number.isInteger(node) || select.dataset.nodes === "") return;
    await flush(); // the question is asked at the position on screen: it must be the class's
    const kind = $("class-kind").value;
    const asked = await classCommand(cls.code, cls.key, "questions", { node, kind });
    if (!asked.ok) return status(`Not asked: ${asked.error.message}`);
    const at = { phase: stepper.state.phase, step: stepper.state.step };
    Object.assign(cls, { question: { id: asked.body.question, name: stepper.state.model.byId[node].grad_name, kind, ...at }, round: 1, rounds: {}, count: 0, open: true, locked: false, qr: false });
    withhold();
    status("");
    render();
  }

  /** Stop the answers without showing them: the class talks it over before the reveal.
   * (Stepping on stops them too: the next step's picture may show the answer.) */
  async function lock() {
    if (!cls.question || !cls.open) return;
    const locked = await lockQuestion(cls.code, cls.key, cls.question.id);
    if (!locked.ok) return status(`Not stopped: ${locked.error.message}`);
    Object.assign(cls, { open: false, locked: true });
    render();
  }

  async function reveal() {
    if (!cls.question) return;
    const shown = await revealQuestion(cls.code, cls.key, cls.question.id);
    if (!shown.ok) return status(`Not revealed: ${shown.error.message}`);
    backToQuestion(); // the class is taken back to the question's step: so is this screen
    revealed(shown.body.round, shown.body.histogram);
    status("");
  }

  function backToQuestion() {
    const q = cls.question;
    const { state } = stepper;
    if (!q?.phase || !state.model || (state.phase === q.phase && state.step === q.step)) return;
    stepper.setState({ quiz: null });
    stepper.goTo(toTimeline(state.model, q.phase, q.step));
  }

  async function again() {
    if (!cls.question) return;
    const asked = await askAgain(cls.code, cls.key, cls.question.id);
    if (!asked.ok) return status(`Not asked again: ${asked.error.message}`);
    backToQuestion();
    Object.assign(cls, { round: asked.body.round, count: 0, open: true, locked: false });
    withhold();
    status(`Vote ${asked.body.round} on ${cls.question.name}: talk it over with your neighbour, then answer again.`);
    render(); // the first vote's histogram comes back beside the second's when that is revealed
  }

  function revealed(round, histogram) {
    cls.rounds[round] = histogram;
    cls.folded = false;
    if (stepper.state.quiz?.class) stepper.setState({ quiz: null }); // the step is shown now
    if (round === cls.round) Object.assign(cls, { open: false, locked: false });
    $("class-results-body").replaceChildren(...histogramRounds(cls.rounds, cls.question.name, stepper.state.decimals));
    render();
  }

  /** The class's events: the live count of answers (and, after a reload, the question on
   * screen and its histogram). The teacher's page listens as a student's does. */
  function listen() {
    cls.events?.close();
    const events = classEvents(cls.code);
    cls.events = events;
    events.onmessage = (message) => {
      if (cls.events !== events) return;
      const e = JSON.parse(message.data);
      if (e.type === "question") {
        if (cls.question?.id !== e.question) cls.rounds = {};
        if (cls.question?.id !== e.question || cls.round !== e.round) { // after a reload
          Object.assign(cls, { question: { id: e.question, name: e.name, kind: e.kind, phase: e.phase, step: e.step }, round: e.round, count: 0, open: true, locked: false });
          withhold();
        }
      } else if (e.type === "answers" && cls.question?.id === e.question && cls.round === e.round) cls.count = Math.max(cls.count, e.count);
      else if (e.type === "locked" && cls.question?.id === e.question && cls.round === e.round) Object.assign(cls, { open: false, locked: true });
      else if (e.type === "reveal" && cls.question?.id === e.question) {
        cls.count = e.histogram.count;
        return revealed(e.round, e.histogram);
      } else if (e.type === "position") Object.assign(cls, { paused: e.paused, roam: e.roam, ahead: e.roam_ahead });
      else if (e.type === "program") Object.assign(cls, { question: null, rounds: {} });
      else if (e.type === "closed") return forget(e.reason === "expired" ? "The class expired." : "Class ended.");
      render();
    };
  }

  /* ---------- who follows: nicknames for the teacher's eyes (Present never shows them) ---------- */

  async function roster() {
    const code = cls.code;
    if (code === null || document.hidden) return;
    const got = await fetchStudents(code, cls.key);
    if (!got.ok || cls.code !== code) return;
    cls.roster = got.body;
    renderRoster();
  }

  function renderRoster() {
    const r = cls.roster;
    if (!r) return;
    $("class-students").textContent = `${r.present} following`;
    if ($("class-roster").hidden) return;
    const answered = r.answered === null ? "" : ` · ${r.answered} answered`;
    const left = r.students.length - r.present;
    $("class-roster-summary").textContent = `${r.present} following${left ? `, ${left} left` : ""}${answered}`;
    $("class-roster-list").replaceChildren(...r.students.map((s, i) => el("li", { class: s.present ? "here" : "gone" },
      el("span", { class: "who", text: s.nickname ?? `Student ${i + 1}` }),
      el("span", { class: "state", text: s.present ? "following" : "left" }),
      ...(r.answered === null ? [] : [el("span", { class: s.answered ? "answered" : "waiting", text: s.answered ? "answered ✓" : "not yet" })]),
    )));
  }

  function toggleRoster() {
    const shown = $("class-roster").hidden;
    $("class-roster").hidden = !shown;
    $("class-students").setAttribute("aria-expanded", String(shown));
    if (shown) roster();
    renderRoster();
  }

  async function downloadCsv() {
    const got = await fetchAnswersCsv(cls.code, cls.key);
    if (!got.ok) return status(`No CSV: ${got.error.message}`);
    const a = el("a", { href: URL.createObjectURL(got.blob), download: `gradstep-class-${cls.code}-answers.csv` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }

  function hideResults() {
    cls.folded = true;
    render();
    $("graph-view").focus({ preventScroll: true });
  }

  $("class-start").addEventListener("click", start);
  $("present-class").addEventListener("click", start);
  $("class-pause").addEventListener("click", () => toggle("paused"));
  $("class-roam").addEventListener("click", () => toggle("roam"));
  $("class-roam-to").addEventListener("change", (e) => roamTo(e.target.value === "anywhere"));
  $("class-ask").addEventListener("click", ask);
  $("class-lock").addEventListener("click", lock);
  $("class-reveal").addEventListener("click", reveal);
  $("class-again").addEventListener("click", again);
  $("class-csv").addEventListener("click", downloadCsv);
  $("class-students").addEventListener("click", toggleRoster);
  $("class-end").addEventListener("click", end);
  $("class-results-close").addEventListener("click", hideResults);
  $("class-qr-toggle").addEventListener("click", () => qr());
  // Q shows and hides the class's QR code in place of the copy's (short-link.js), as its button
  const qr = () => { cls.qr = !cls.qr; render(); };
  $("present-qr").addEventListener("click", (e) => {
    if (cls.code === null) return;
    e.stopImmediatePropagation();
    qr();
  }, true);
  // the teacher's keys while a class runs: A asks, L stops the answers, R reveals (then asks
  // again), Q shows the code
  document.addEventListener("keydown", (e) => {
    if (cls.code === null || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
    if (e.target.closest?.("input, textarea, select, [contenteditable]")) return;
    const act = { a: ask, l: lock, r: () => (cls.open || cls.locked ? reveal() : again()), q: qr }[e.key.toLowerCase()];
    if (!act) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    act();
  }, true);

  return { sync, resume, pastQuestion, running: () => cls.code !== null };
}
