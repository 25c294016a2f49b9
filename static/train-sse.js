// Server-Sent Events read from a fetch() body: EventSource cannot POST, and an aborted fetch
// is exactly how the server learns that nobody is listening any more. Pure: no DOM.

/** A parser fed text chunks as they arrive; calls onEvent(name, data) per complete event. */
export function sseParser(onEvent) {
  let buffer = "";
  return function feed(chunk) {
    buffer += chunk.replace(/\r\n?/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) continue; // a comment (keep-alive)
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") name = value;
        else if (field === "data") data.push(value);
      }
      if (data.length) onEvent(name, JSON.parse(data.join("\n")));
    }
  };
}

/** Reads a streamed response to its end, handing each event to onEvent. */
export async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const feed = sseParser(onEvent);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    feed(decoder.decode(value, { stream: true }));
  }
  feed(decoder.decode());
}
