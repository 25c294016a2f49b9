// A live class's page, /c/{code} (docs/classroom.md, "A live class"). A student's: the class's
// graph at the teacher's step (the stepper, as /embed has it), following the class's events;
// frozen while paused, stepping freely while the teacher lets students roam; the question's
// answer field and, once revealed, the histogram the server counted. The teacher's link
// (/c/{code}#key=…) hands the key to this tab's sessionStorage and opens the main page instead.

import { classEvents, fetchClass, fetchGraph, sendAnswer } from "./api.js";
import { TEACHER_KEY } from "./class-teacher.js";
import { parseNumber } from "./format.js";
import { histogramRounds } from "./histogram.js";
import { stepAt } from "./model.js";
import { createStepper } from "./stepper.js";

const $ = (id) => document.getElementById(id);
const root = $("student");
const code = root.dataset.code;
const STUDENT_KEY = "gradstep-student"; // localStorage: this browser's random token
const NICKNAME_KEY = "gradstep-nickname";
const answeredKey = `gradstep-answered-${code}`; // localStorage: the rounds answered, "q:r"
const RECHECK_MS = 2_000; // a refused stream: how soon the class is asked for again

const s = {
  program: null, // {source, values, digest}
  teacher: null, // the class's position event
  drawn: "", // what the graph was drawn for: program, values, folds, iteration
  iteration: null, // a training loop's iteration drawn (the graph's answer says which)
  paused: false,
  roam: false,
  ahead: false, // roaming past the teacher's step
  question: null, // the question event on screen
  locked: false, // its round takes no more answers (the teacher moved on, or stopped them)
  count: 0,
  rounds: {}, // the revealed rounds of the question on screen: {round: histogram}
  closed: false,
  connected: false,
  redraw: null, // the timer that asks again for a graph the server was too busy to draw
};
let stepper = null;

/** Roaming students go back over what the class has seen, not ahead of it (unless let): the
 * last position they may see, or null. */
const bound = () => (s.roam && !s.ahead && s.teacher ? stepper.positionOf(s.teacher.phase, s.teacher.step) : null);

/** This browser's student token: random, kept, never a name. */
function studentId() {
  let id = localStorage.getItem(STUDENT_KEY);
  if (!id || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) {
    const bytes = crypto.getRandomValues(new Uint8Array(18));
    id = btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
    localStorage.setItem(STUDENT_KEY, id);
  }
  return id;
}

const answered = () => new Set(JSON.parse(localStorage.getItem(answeredKey) ?? "[]"));
function markAnswered(round) {
  const all = answered();
  all.add(round);
  localStorage.setItem(answeredKey, JSON.stringify([...all].slice(-50)));
}

/* ---------- render ---------- */

function render() {
  const mode = s.closed ? "closed" : !s.connected ? "connecting" : s.paused ? "paused" : s.roam ? "roam" : "follow";
  const state = $("class-state");
  state.dataset.mode = mode;
  state.textContent = {
    closed: "The class has ended.",
    connecting: s.program ? "Reconnecting…" : "Connecting…",
    paused: "Paused",
    roam: s.ahead ? "Explore: step on your own (← →)" : "Explore up to the class's step (← →)",
    follow: "Following the teacher",
  }[mode];
  root.dataset.mode = mode;
  root.classList.toggle("roaming", mode === "roam");
  $("class-iteration").hidden = s.iteration === null;
  $("class-iteration").textContent = s.iteration === null ? "" : `iteration ${s.iteration}`;
  renderQuestion();
  withhold();
  // a histogram is shown with its own step alone: never under another step's picture
  const shown = Object.keys(s.rounds).length > 0 && !(s.question && unrevealed()) && atQuestion();
  $("results").hidden = !shown;
  $("student-name").hidden = s.closed; // no answer is sent to a class that has ended
  const q = s.question;
  $("question-locked").hidden = !q || !s.locked || !unrevealed() || s.closed || !atQuestion();
  if (!$("question-locked").hidden) $("question-locked").textContent = `Answers to “What is ${q.name}?” are closed: the teacher shows them next.`;
}

const roundKey = () => `${s.question.question}:${s.question.round}`;
const unrevealed = () => Boolean(s.question) && !s.rounds[s.question.round];
const isOpen = () => unrevealed() && !s.locked;
/** Whether the screen shows the step the question on screen was asked at. */
function atQuestion() {
  const q = s.question;
  const state = stepper?.state;
  if (!q || !state?.model) return false;
  return state.phase === q.phase && state.step === q.step;
}

function renderQuestion() {
  const form = $("question");
  const q = s.question;
  form.hidden = !q || !isOpen() || s.closed;
  if (form.hidden) return;
  const sign = q.kind === "sign";
  const key = roundKey();
  if (form.dataset.round !== key) { // a new question or round: a fresh field
    form.dataset.round = key;
    $("answer-value").value = "";
    $("answer-state").textContent = "";
    form.dataset.sent = answered().has(key) ? "counted" : "";
    if (form.dataset.sent) $("answer-state").textContent = "Your answer is counted.";
  }
  $("question-text").textContent = `${q.round > 1 ? `Vote ${q.round}: ` : ""}What is ${q.name}${sign ? "'s sign" : ""}?`;
  $("answer-number").hidden = sign;
  $("answer-sign").hidden = !sign;
  const done = form.dataset.sent === "counted" || form.dataset.sent === "sending";
  for (const control of form.querySelectorAll("input, button")) control.disabled = done;
  const count = `${s.count} ${s.count === 1 ? "answer" : "answers"} so far`;
  $("answer-state").dataset.count = count;
  if (!$("answer-state").textContent || $("answer-state").dataset.kind === "count") {
    $("answer-state").textContent = count;
    $("answer-state").dataset.kind = "count";
  }
}

/** While a question is open, the step that computes its grad is shown as before it (predict
 * mode's picture), so the screen does not answer it; the reveal shows the step. */
function withhold() {
  const state = stepper?.state;
  if (!state?.model) return;
  const q = s.question;
  const step = state.phase === "backward" ? stepAt(state.model, "backward", state.step) : null;
  const hide = Boolean(q) && unrevealed() && !(s.roam && s.ahead) && !s.closed && Boolean(step?.changes.some((c) => c.node === q.node));
  if (hide && state.quiz?.step !== state.step) stepper.setState({ quiz: { class: true, step: state.step, question: `What is ${q.name}? Answer below.`, asks: [] } });
  else if (!hide && state.quiz) stepper.setState({ quiz: null });
}

function renderResults() {
  const name = s.question?.name ?? "grad";
  $("results").replaceChildren(...histogramRounds(s.rounds, name, stepper?.state.decimals ?? 4));
}

/* ---------- following the teacher ---------- */

let busy = false;
let again = false;
const REDRAW_S = 3; // a graph refused as busy without a Retry-After is asked for again after this

/** Draw the class's program as the teacher's position has it, and (following) go to its step. */
async function follow() {
  if (busy) return void (again = true);
  busy = true;
  try {
    do {
      again = false;
      if (s.paused || !s.teacher || !s.program) break;
      const at = s.teacher;
      if (!(await draw(at))) break;
      if (s.paused || again) continue;
      if (!s.roam) stepper.goTo(stepper.positionOf(at.phase, at.step));
      else if (stepper.position() > (bound() ?? Infinity)) stepper.goTo(bound()); // the class went back
    } while (again);
  } finally {
    busy = false;
  }
  root.dataset.position = stepper ? String(stepper.position()) : "";
  render();
}

/** The graph for a position (its program, values, folds, iteration): asked for only when it
 * is not the one on show. Returns whether it is on show. */
async function draw(at) {
  const program = s.program;
  const values = { ...program.values, ...at.values };
  const fold = at.folded.length ? at.folded.join(",") : "none";
  const key = JSON.stringify([program.digest, values, fold, at.iteration]);
  if (key === s.drawn) return true;
  const view = root.querySelector('[data-part="graph"]').getBoundingClientRect();
  const result = await fetchGraph({ source: program.source, values, fold, iteration: at.iteration, aspect: view.width / Math.max(view.height, 1) });
  if (!result.ok) {
    showError(`The class's graph could not be drawn: ${result.error.message}`);
    // a server at capacity (past the page's own retries) or out of reach: asked again by
    // itself, not only at the teacher's next step
    if (["busy", "network"].includes(result.error.kind)) {
      clearTimeout(s.redraw);
      s.redraw = setTimeout(follow, (result.error.retryAfter ?? REDRAW_S) * 1000);
    }
    return false;
  }
  $("class-error").hidden = true;
  const { structure, numbers, svg } = result.body;
  stepper.load({ structure, numbers }, svg, result.body.source, { position: { phase: at.phase, step: at.step }, fold: result.body.fold });
  s.drawn = key;
  s.iteration = result.body.training?.iteration ?? null;
  root.dataset.state = "ready";
  return true;
}

function showError(message) {
  $("class-error").textContent = message;
  $("class-error").hidden = false;
}

function onEvent(e) {
  s.connected = true;
  if (e.type === "position") {
    const snap = s.paused && !e.paused; // (a position carries paused too)
    Object.assign(s, { teacher: e, paused: e.paused, roam: e.roam, ahead: e.roam_ahead });
    if (e.program !== s.program?.digest) return void reload();
    if (!s.paused || snap) follow();
  } else if (e.type === "paused") {
    s.paused = e.paused;
    if (!e.paused) follow(); // where the teacher is now
  } else if (e.type === "program") {
    s.program = { source: e.source, values: e.values, digest: e.digest };
    Object.assign(s, { question: null, rounds: {}, locked: false });
    renderResults();
  } else if (e.type === "question") {
    if (s.question?.question !== e.question) s.rounds = {};
    if (s.question?.question !== e.question || s.question.round !== e.round) Object.assign(s, { count: 0, locked: false });
    s.question = e;
    renderResults();
  } else if (e.type === "locked") {
    if (s.question?.question === e.question && s.question.round === e.round) s.locked = true;
  } else if (e.type === "answers") {
    if (s.question?.question === e.question && s.question.round === e.round) s.count = e.count;
  } else if (e.type === "reveal") {
    if (s.question?.question !== e.question) return;
    s.rounds[e.round] = e.histogram;
    s.count = e.histogram.count;
    renderResults();
  } else if (e.type === "closed") {
    s.closed = true;
    events?.close();
  }
  render();
}

// a class this page has joined that the server no longer has: not a mistyped code
const LOST = "This class is no longer on the server: it has ended, or the server lost it in a restart. Ask your teacher for the code again.";

/** The class as it is now (a position named a program this page does not hold). */
async function reload() {
  const got = await fetchClass(code);
  if (!got.ok) {
    if (got.error.kind === "not_found") s.closed = true;
    showError(got.error.kind === "not_found" ? LOST : got.error.message);
    return render();
  }
  s.program = got.body.program;
  follow();
}

/** The stream was refused (EventSource gives up on an error answer): the class is gone, or the
 * server is not answering yet; asked again until one or the other is known. */
async function recheck() {
  if (s.closed) return;
  const got = await fetchClass(code);
  if (got.ok) return listen();
  if (got.error.kind !== "not_found") return setTimeout(recheck, RECHECK_MS);
  s.closed = true;
  events?.close();
  showError(LOST);
  render();
}

let events = null;
function listen() {
  events?.close();
  events = classEvents(code, studentId(), $("nickname").value.trim());
  events.onmessage = (message) => onEvent(JSON.parse(message.data));
  events.onerror = () => { // EventSource reconnects by itself, and is sent the class as it is
    if (s.closed) return;
    s.connected = false;
    render();
    if (events.readyState === EventSource.CLOSED) setTimeout(recheck, RECHECK_MS);
  };
}

/* ---------- answering ---------- */

async function send(value) {
  const q = s.question;
  if (!q || !isOpen()) return;
  const form = $("question");
  const key = roundKey();
  const state = $("answer-state");
  form.dataset.sent = "sending";
  state.dataset.kind = "";
  state.textContent = "Sending…";
  render();
  const nickname = $("nickname").value.trim();
  const body = { student: studentId(), question: q.question, value, ...(nickname ? { nickname } : {}) };
  const sent = await sendAnswer(code, body);
  if (form.dataset.round !== key) return;
  if (sent.ok) {
    markAnswered(key);
    form.dataset.sent = "counted";
    state.textContent = `Sent ✓ counted (${sent.body.count} so far)`;
  } else if (sent.error.kind === "answered") {
    markAnswered(key);
    form.dataset.sent = "counted";
    state.textContent = "You answered already: your first answer counts.";
  } else if (sent.error.kind === "closed") {
    form.dataset.sent = "counted";
    state.textContent = "Too late: this question is closed.";
  } else {
    form.dataset.sent = "";
    state.textContent = `Not sent: ${sent.error.message}`;
  }
  render();
}

/* ---------- start ---------- */

async function start() {
  stepper = createStepper(root, {
    state: { over: true },
    // roaming past the question; at the class's step (the bound) the step stays withheld
    onQuizNext: () => {
      stepper.setState({ quiz: null });
      const moved = stepper.next();
      render();
      return moved;
    },
    limit: bound,
  });
  document.addEventListener("keydown", (e) => {
    if (!s.roam || s.paused || s.closed) return; // following or paused: the keys wait
    stepper.onKey(e);
    render(); // a question's histogram is shown at its own step alone
  });
  $("nickname").value = localStorage.getItem(NICKNAME_KEY) ?? "";
  $("nickname").addEventListener("change", (e) => {
    localStorage.setItem(NICKNAME_KEY, e.target.value.trim());
    if (events && !s.closed) listen(); // the teacher's list shows the new name
  });
  $("question").addEventListener("submit", (e) => {
    e.preventDefault();
    const value = parseNumber($("answer-value").value);
    if (value === null) {
      $("answer-state").dataset.kind = "";
      $("answer-state").textContent = "Type a number, such as -1.5";
      return;
    }
    send(value);
  });
  for (const button of document.querySelectorAll("[data-sign]")) button.addEventListener("click", () => send(button.dataset.sign));
  const got = await fetchClass(code);
  if (!got.ok) {
    s.closed = got.error.kind === "not_found";
    root.dataset.state = "error";
    showError(got.error.message);
    return render();
  }
  s.program = got.body.program;
  listen(); // its first event is the position: the graph is drawn for it
  // a phone that loses its network may keep a dead connection for minutes, and a closed
  // stream is not opened again: offline, the stream is put down; online, or shown again after
  // sleeping, it is opened again, and its first event is the class's step now
  addEventListener("offline", () => {
    if (s.closed) return;
    events?.close();
    s.connected = false;
    render();
  });
  addEventListener("online", () => s.closed || listen());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !s.closed && events?.readyState === EventSource.CLOSED) listen();
  });
}

const hash = new URLSearchParams(location.hash.slice(1));
if (hash.get("key")) { // the teacher's link: the key stays in this tab, the page becomes the teacher's
  sessionStorage.setItem(TEACHER_KEY, JSON.stringify({ code, key: hash.get("key") }));
  location.replace(`/?class=${encodeURIComponent(code)}`);
} else start();
