/** One server-sent event: its `event:` name (null when none) and its `data:` lines joined by "\n". */
export interface SseFrame {
  event: string | null;
  data: string;
}

/**
 * Reads a server-sent-event body frame by frame (blank-line separated; `\n`, `\r\n` or `\r` line
 * ends; `:` comment lines ignored). A frame with neither data nor a name is skipped. The reader is
 * released when the caller stops early, which cancels the body and closes the connection.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseFrame> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event: string | null = null;
  let data: string[] = [];
  let done = false;
  const line = (text: string): SseFrame | undefined => {
    if (text === "") {
      const frame = data.length || event !== null ? { event, data: data.join("\n") } : undefined;
      event = null;
      data = [];
      return frame;
    }
    if (text.startsWith(":")) return undefined;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    return undefined;
  };
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        buffer += decoder.decode();
      } else buffer += decoder.decode(next.value, { stream: true });
      // A "\r" at the very end may be the first half of "\r\n": keep it until more arrives.
      const pattern = /\r\n|\n|\r(?!$)/g;
      let start = 0;
      for (let m = pattern.exec(buffer); m; m = pattern.exec(buffer)) {
        const frame = line(buffer.slice(start, m.index));
        start = m.index + m[0].length;
        if (frame) yield frame;
      }
      buffer = buffer.slice(start);
      if (done) {
        const last = line(buffer.replace(/\r$/, "")) ?? line("");
        if (last) yield last;
        return;
      }
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
