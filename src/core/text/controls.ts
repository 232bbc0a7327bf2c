/**
 * Control characters in text that came from files or requests. Printed raw to a terminal they act
 * instead of showing: ESC sequences set the window title or clear the screen, a carriage return
 * overwrites the line, bidirectional overrides reorder what is read. Hearth escapes them in what
 * it prints and flags them where it reads them.
 */

/** C0 controls except tab and line feed, DEL, C1 controls, and the bidirectional embeddings, overrides and isolates. */
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const ANY_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Each control character written as `\uXXXX`: visible text in a terminal, and still a valid escape inside a JSON string. */
export function escapeControls(text: string): string {
  return ANY_CONTROL.test(text) ? text.replace(CONTROL_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

/** The first control character of `text`, as `U+001B`, or undefined. */
export function firstControl(text: string): string | undefined {
  const m = ANY_CONTROL.exec(text);
  return m ? `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : undefined;
}
