// The server's API (docs/graph-contract.md). One request per program or per value change.

/** POST /api/graph. Resolves {ok: true, body} or {ok: false, error: {message, line, ...}}. */
export async function fetchGraph(source, values, signal) {
  let response;
  try {
    response = await fetch("/api/graph", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ source, values: values && Object.keys(values).length ? values : null }),
      signal,
    });
  } catch (err) {
    if (err.name === "AbortError") throw err;
    return { ok: false, error: { message: "The server cannot be reached. Is it still running?", kind: "network" } };
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (response.ok && body?.trace) return { ok: true, body };
  const error = body?.error ?? errorFromDetail(body) ?? { message: `The server answered ${response.status}.` };
  return { ok: false, error };
}

/** FastAPI's own validation answer ({detail: [...]}) as our error shape, should one get through. */
function errorFromDetail(body) {
  const first = Array.isArray(body?.detail) ? body.detail[0] : null;
  return first ? { message: first.msg ?? "The request was refused.", kind: "request" } : null;
}

/** GET /api/presets: [{id, title, lesson, source}], or [] when unavailable. */
export async function fetchPresets() {
  try {
    const response = await fetch("/api/presets");
    if (!response.ok) return [];
    const body = await response.json();
    return Array.isArray(body) ? body : (body.presets ?? []);
  } catch {
    return [];
  }
}
