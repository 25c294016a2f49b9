// Every request the browser makes (docs/api.md). Each resolves {ok: true, body} or
// {ok: false, error: {message, kind, line, column, ...}}: a refusal is shown, never thrown.

import { readEvents } from "./train-sse.js";

async function request(url, init = {}) {
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    if (err.name === "AbortError") throw err;
    return { ok: false, error: { message: "The server cannot be reached. Is it still running?", kind: "network" } };
  }
  return answer(response);
}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (response.ok) return { ok: true, body };
  const error = body?.error ?? { message: `The server answered ${response.status}.`, kind: "http" };
  const retry = Number(response.headers.get("retry-after"));
  return { ok: false, error: retry > 0 ? { ...error, retryAfter: retry } : error };
}

function post(url, body, signal) {
  return request(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
}

// A server at capacity answers 503 busy with Retry-After (docs/deploy.md): the graph is asked
// for again after that wait, this many times, before the refusal is shown. A newer request
// aborts the wait as it would the fetch.
const BUSY_RETRIES = 3;

function pause(seconds, signal) {
  return new Promise((resolve, reject) => {
    const aborted = () => { clearTimeout(timer); reject(new DOMException("aborted", "AbortError")); };
    const timer = setTimeout(() => { signal?.removeEventListener("abort", aborted); resolve(); }, seconds * 1000);
    if (signal?.aborted) aborted();
    else signal?.addEventListener("abort", aborted, { once: true });
  });
}

async function postPatiently(url, body, signal) {
  for (let tries = 0; ; tries += 1) {
    const result = await post(url, body, signal);
    const busy = !result.ok && result.error.kind === "busy" && result.error.retryAfter;
    if (!busy || tries === BUSY_RETRIES) return result;
    await pause(result.error.retryAfter, signal);
  }
}

/** POST /api/graph: the trace (structure and numbers) and SVG of a program. `values`: an
 * object, or a URL's text. `layout`: the layout of the graph on show; when the new one is drawn
 * the same, the answer's svg is null (the shown SVG is kept and restyled). `structure`: the
 * digest of the structure held; when the new one is the same, the answer's structure is null.
 * `engine`: "auto" (a program's own class Value builds its graph) or "gradstep". `iteration`:
 * which iteration of a training loop (null: the first). */
export function fetchGraph({ source, preset = null, values = null, rankdir = "auto", aspect = null, fold = "auto", layout = null, structure = null, engine = "auto", iteration = null }, signal) {
  const hasValues = values && (typeof values === "string" || Object.keys(values).length);
  return postPatiently("/api/graph", { source, preset, values: hasValues ? values : null, rankdir, aspect, fold, layout, structure, engine, iteration }, signal);
}

/** POST /api/three-ways: the program's derivatives symbolically, numerically and in forward mode,
 * beside reverse mode's, with their costs (docs/three-ways.md). */
export function fetchThreeWays({ source, preset = null, values = null, engine = "auto", iteration = null }, signal) {
  const hasValues = values && (typeof values === "string" || Object.keys(values).length);
  return postPatiently("/api/three-ways", { source, preset, values: hasValues ? values : null, engine, iteration }, signal);
}

/** GET /api/presets: [{id, title, lesson, source}], or [] when unavailable. */
/** POST /api/notebook: a Jupyter notebook as one program (its code cells, each begun by
 * "# %%"). Only its cells' types and sources are sent: outputs can be megabytes of images. */
export function fetchNotebookProgram(notebook) {
  const cells = Array.isArray(notebook?.cells) ? notebook.cells.map((c) => ({ cell_type: c?.cell_type, source: c?.source })) : notebook?.cells;
  return post("/api/notebook", { notebook: { cells, metadata: { language_info: notebook?.metadata?.language_info ?? null, kernelspec: notebook?.metadata?.kernelspec ?? null } } });
}

export async function fetchPresets() {
  const result = await request("/api/presets");
  return result.ok && Array.isArray(result.body) ? result.body : [];
}

export const fetchTrainOptions = () => request("/api/train/options");

/** GET /api/train/parameters: how many weights and biases a model of the form has. */
export const countParameters = (form) => request(`/api/train/parameters?${new URLSearchParams(form)}`);

export const inspectPoint = (body) => post("/api/train/inspect", body);

/** POST /api/links: a view stored as a short link, {id, url}. */
export const createLink = (body) => post("/api/links", body);

/** POST /api/train, its events handed to onEvent(name, data) as they arrive. Closing the
 * stream (aborting `signal`) is how the user stops the job. Resolves {ok, aborted, error}. */
export async function streamTraining(body, signal, onEvent) {
  const init = { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal };
  try {
    const response = await fetch("/api/train", init);
    if (!response.ok) return answer(response);
    await readEvents(response, onEvent);
    return { ok: true };
  } catch (err) {
    if (err.name === "AbortError") return { ok: true, aborted: true };
    return { ok: false, error: { message: "The training stream broke off: is the server still running?", kind: "network" } };
  }
}

/* ---------- live classes (docs/api.md, "Live classes") ---------- */

/** A teacher's command: JSON with the class's teacher key as a Bearer token. */
function command(method, url, key, body = undefined) {
  const headers = { Authorization: `Bearer ${key}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  return request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

const classUrl = (code, rest = "") => `/api/classes/${encodeURIComponent(code)}${rest}`;

/** POST /api/classes: {code, teacher_key, student_url, teacher_url, qr_svg_url}. */
export const startClass = (source, values) => post("/api/classes", { source, values: values && Object.keys(values).length ? values : null });

/** GET /api/classes/{code}: {code, program, position, question}, what a page starts from. */
export const fetchClass = (code) => request(classUrl(code));

/** The class's events (an EventSource: it reconnects by itself and is sent the class as it is);
 * a student's page names itself (its token, its nickname) so that the teacher sees who follows. */
export function classEvents(code, student = null, nickname = "") {
  const who = new URLSearchParams(student ? { student, ...(nickname ? { nickname } : {}) } : {});
  return new EventSource(classUrl(code, `/events${student ? `?${who}` : ""}`));
}

export const classQrUrl = (code) => classUrl(code, "/qr.svg");

/** The teacher's commands: `what` is position, pause, roam, program or questions. */
export const classCommand = (code, key, what, body) => command("POST", classUrl(code, `/${what}`), key, body);
export const askAgain = (code, key, question) => command("POST", classUrl(code, `/questions/${question}/again`), key);
export const revealQuestion = (code, key, question) => command("POST", classUrl(code, `/questions/${question}/reveal`), key);
export const lockQuestion = (code, key, question) => command("POST", classUrl(code, `/questions/${question}/lock`), key);
export const fetchTally = (code, key) => command("GET", classUrl(code, "/answers"), key);
export const fetchStudents = (code, key) => command("GET", classUrl(code, "/students"), key);
export const endClass = (code, key) => command("DELETE", classUrl(code), key);

/** GET answers.csv (it needs the key, so it is fetched, not linked): {ok, blob} or {ok, error}. */
export async function fetchAnswersCsv(code, key) {
  try {
    const response = await fetch(classUrl(code, "/answers.csv"), { headers: { Authorization: `Bearer ${key}` } });
    if (!response.ok) return answer(response);
    return { ok: true, blob: await response.blob() };
  } catch {
    return { ok: false, error: { message: "The server cannot be reached.", kind: "network" } };
  }
}

/** A student's answer: 202 {question, round, count}, or 409 kind answered / closed. */
export const sendAnswer = (code, body) => post(classUrl(code, "/answers"), body);
