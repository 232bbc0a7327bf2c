/**
 * The graph picture's geometry, shared by the page (which draws only the rows in view) and the
 * SVG and PNG exports (which draw every row): rows per node labelled by name and roles, a time
 * axis in minutes, bars placed by start and duration.
 */
import type { Placed } from './schedule.js';

export const ROW = 22;
export const LABEL = 260;
export const AXIS = 24;

export interface Picture {
  placed: Placed[];
  makespan: number;
  /** Node ids, one row each, in order. */
  nodes: string[];
  rows: Map<string, number>;
  critical: Set<string>;
  label: (node: string) => string;
}

/** The shortest time the picture spans: a run of a few seconds still gets a readable width. */
export const MIN_SPAN_S = 10;

/**
 * Axis ticks (seconds from the start, and their label): a round step giving 5 to 12 ticks over the
 * makespan, in seconds for a run under two minutes (a 9 s run on a minutes axis showed only
 * "0 min"), in minutes otherwise.
 */
export function ticks(makespan: number): Array<{ at: number; label: string }> {
  const out: Array<{ at: number; label: string }> = [];
  if (makespan < 120) {
    const seconds = Math.max(MIN_SPAN_S, makespan);
    const step = [1, 2, 5, 10, 15, 20].find((s) => seconds / s <= 12) ?? 30;
    for (let t = 0; t <= seconds + step / 2; t += step) out.push({ at: t, label: `${t} s` });
    return out;
  }
  const minutes = makespan / 60;
  const step = [1, 2, 5, 10, 15, 30, 60, 120, 240].find((s) => minutes / s <= 12) ?? 480;
  for (let m = 0; m <= minutes + step / 2; m += step) out.push({ at: m * 60, label: `${m} min` });
  return out;
}

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The whole picture as a standalone SVG document (every row), for export. */
export function pictureSvg(p: Picture, scale: number, title: string): string {
  const width = Math.ceil(LABEL + Math.max(MIN_SPAN_S, p.makespan) * scale + 40);
  const height = AXIS + p.nodes.length * ROW + 40;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<title>${escape(title)}</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
  ];
  for (const t of ticks(p.makespan)) {
    const x = LABEL + t.at * scale;
    parts.push(`<line x1="${x}" y1="${AXIS - 6}" x2="${x}" y2="${height - 30}" stroke="#e3e7eb"/><text x="${x + 2}" y="${AXIS - 10}" fill="#5b6672">${t.label}</text>`);
  }
  p.nodes.forEach((n, i) => parts.push(`<text x="4" y="${AXIS + i * ROW + 15}" fill="#1d232b">${escape(p.label(n))}</text>`));
  for (const b of p.placed) {
    const y = AXIS + p.rows.get(b.node)! * ROW + 3;
    const critical = p.critical.has(b.key);
    parts.push(
      `<rect x="${(LABEL + b.start * scale).toFixed(1)}" y="${y}" width="${Math.max(2, b.duration * scale).toFixed(1)}" height="${ROW - 6}" fill="${critical ? '#e8847a' : '#8fb3e8'}" stroke="${critical ? '#b42318' : '#4a78c0'}" stroke-width="0.5"><title>${escape(`${b.task} on ${p.label(b.node)}`)}</title></rect>`,
    );
  }
  parts.push(`<text x="4" y="${height - 10}" fill="#5b6672">Blue: a task. Red: the critical path. Time from the task timeouts (an upper estimate).</text>`, '</svg>');
  return parts.join('');
}

/** Save text or a blob as a file, the way a browser downloads. */
export function download(name: string, content: Blob | string, type = 'text/plain'): void {
  const blob = typeof content === 'string' ? new Blob([content], { type }) : content;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The SVG drawn on a canvas, as PNG. */
export async function svgToPng(svg: string): Promise<Blob> {
  const image = new Image();
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('the picture could not be drawn'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    // Browsers cap canvas sizes; a very large graph is scaled down to fit.
    const factor = Math.min(1, 16000 / Math.max(image.width, image.height));
    canvas.width = Math.max(1, Math.floor(image.width * factor));
    canvas.height = Math.max(1, Math.floor(image.height * factor));
    canvas.getContext('2d')!.drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the picture is too large for a PNG'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
