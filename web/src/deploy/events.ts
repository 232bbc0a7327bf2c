/** Server-Sent Events as text: the part of the format the deployments' live stream uses. */

/** Splits an event stream's text into events; returns what is left of an unfinished one. */
export function parseEvents(buffer: string, emit: (event: string, data: string) => void): string {
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) emit(event, data.join('\n'));
  }
  return rest;
}
