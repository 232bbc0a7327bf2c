import Anser from 'anser';
import { useMemo, type CSSProperties } from 'react';

/**
 * Terminal output with its ANSI colours and styles (bold, italic, underline), as a shell on the
 * node showed it. anser parses the escapes into runs of text; each run is a React text node, so
 * the text is escaped by React and markup printed by a task (`<script>`) is shown, never run.
 */
export function AnsiText({ text }: { text: string }) {
  const runs = useMemo(() => Anser.ansiToJson(text, { json: true, remove_empty: true }), [text]);
  return (
    <>
      {runs.map((r, i) => {
        const style = styleOf(r);
        return style ? (
          <span key={i} className="ansi" style={style}>
            {r.content}
          </span>
        ) : (
          r.content
        );
      })}
    </>
  );
}

function styleOf(r: Anser.AnserJsonEntry): CSSProperties | undefined {
  const decorations = new Set(r.decorations ?? []);
  let fg = r.fg_truecolor || r.fg;
  let bg = r.bg_truecolor || r.bg;
  if (decorations.has('reverse')) [fg, bg] = [bg || '255, 255, 255', fg || '0, 0, 0'];
  const style: CSSProperties = {};
  if (fg) style.color = `rgb(${fg})`;
  if (bg) style.backgroundColor = `rgb(${bg})`;
  if (decorations.has('bold')) style.fontWeight = 'bold';
  if (decorations.has('dim')) style.opacity = 0.7;
  if (decorations.has('italic')) style.fontStyle = 'italic';
  const lines = [decorations.has('underline') ? 'underline' : '', decorations.has('strikethrough') ? 'line-through' : ''].filter(Boolean).join(' ');
  if (lines) style.textDecoration = lines;
  if (decorations.has('hidden')) style.visibility = 'hidden';
  return Object.keys(style).length ? style : undefined;
}
