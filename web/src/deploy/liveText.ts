/**
 * A running task's output on the page: what the server kept of it when the viewer opened
 * (GET /deployments/{id}/live-output) joined with the live stream's chunks, each placed by its
 * `offset` (characters the task printed before it), so nothing shows twice and nothing is lost
 * when the two overlap. Chunks from a server that sends no offset are appended as they come.
 */
export interface LiveText {
  text: string;
  /** Characters the task has printed in all: `text` is the part that ends here. */
  end: number;
}

/** What the page keeps of one running task's output (the stored output keeps the last 1 MiB too). */
export const LIVE_LIMIT = 1024 * 1024;

const trim = (text: string, limit: number) => (text.length > limit ? text.slice(text.length - limit) : text);

export function appendChunk(current: LiveText | undefined, chunk: string, offset?: number, limit = LIVE_LIMIT): LiveText {
  if (offset === undefined) return { text: trim((current?.text ?? '') + chunk, limit), end: (current?.end ?? 0) + chunk.length };
  const chunkEnd = offset + chunk.length;
  if (!current) return { text: trim(chunk, limit), end: chunkEnd };
  if (chunkEnd <= current.end) return current;
  // Past what is held: the new part only (a gap, chunks the page never received, is left out).
  const fresh = offset >= current.end ? chunk : chunk.slice(current.end - offset);
  return { text: trim(current.text + fresh, limit), end: chunkEnd };
}

/** The output the server kept (`output` ends at `end`), joined with what the stream brought since. */
export function joinSnapshot(current: LiveText | undefined, snapshot: { output: string | null; end: number }, limit = LIVE_LIMIT): LiveText | undefined {
  const kept = snapshot.output ?? '';
  if (!current || current.end <= snapshot.end) return kept || snapshot.end ? { text: trim(kept, limit), end: snapshot.end } : current;
  const start = current.end - current.text.length;
  // The stream's part after the snapshot's end; when the stream began after that end, all of it.
  const after = start >= snapshot.end ? current.text : current.text.slice(snapshot.end - start);
  return { text: trim(kept + after, limit), end: current.end };
}
