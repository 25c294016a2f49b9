// Downloads that take seconds (every step as a ZIP, the backward pass as a GIF): fetched here
// rather than by the browser, so the dialog can show that they are on their way and offer
// Cancel (closing the stream stops the server's drawing too).

function saveAs(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function fileName(response, fallback) {
  const match = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "");
  return match ? match[1] : fallback;
}

/** `links` are the dialog's a[data-download] for slow files; `status` shows progress. */
export function wireSlowDownloads(links, status, frames) {
  let running = null;
  const show = (...parts) => status.replaceChildren(...parts);

  async function start(a) {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = "Cancel";
    cancel.addEventListener("click", () => controller.abort());
    const started = performance.now();
    let count = frames(a.dataset.download);
    const progress = (bytes) => {
      const seconds = Math.round((performance.now() - started) / 1000);
      show(`Drawing ${count} pictures for ${a.textContent.trim()}… ${seconds} s, ${Math.round(bytes / 1024)} KB so far `, cancel);
    };
    progress(0);
    try {
      const response = await fetch(a.href, { signal: controller.signal });
      if (!response.ok) {
        const body = await response.json().catch(() => null);
        show(body?.error?.message ?? `The server answered ${response.status}.`);
        return;
      }
      count = response.headers.get("x-gradstep-frames") ?? count; // the server's own count
      const reader = response.body.getReader();
      const chunks = [];
      let bytes = 0;
      const ticker = setInterval(() => progress(bytes), 500);
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          chunks.push(value);
          bytes += value.length;
        }
      } finally {
        clearInterval(ticker);
      }
      saveAs(new Blob(chunks, { type: response.headers.get("content-type") ?? "" }), fileName(response, a.download || "gradstep"));
      show(`Saved ${a.textContent.trim()} (${Math.round(bytes / 1024)} KB)`);
    } catch (err) {
      show(err.name === "AbortError" ? "Cancelled." : "The download broke off: is the server still running?");
    } finally {
      if (running === controller) running = null;
    }
  }

  for (const a of links) {
    a.addEventListener("click", (e) => {
      e.preventDefault();
      start(a);
    });
  }
}
