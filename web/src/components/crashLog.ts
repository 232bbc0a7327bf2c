/**
 * The line the page logs (console.error) when a part of it fails to draw and its boundary shows
 * the failure instead (Crashed.tsx); the UI tests watch for it to fail at once with the reason.
 */
export const CRASH_LOG = 'Hearth UI: a part of the page failed';
