/** Names as the server takes them (routes/schemas.ts NAME): 1 to 100 characters, no control characters. */
export const NAME_LIMIT = 100;

/** What is wrong with a name, checked as the user types; null when it is fine. */
export function nameProblem(name: string, taken: readonly string[], what = 'environment'): string | null {
  if (!name.trim()) return `Give the ${what} a name.`;
  if (name.length > NAME_LIMIT) return `A name has at most ${NAME_LIMIT} characters; this one has ${name.length}.`;
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'A name cannot hold control characters (tabs, line breaks).';
  if (taken.includes(name)) return `An ${what} named '${name}' exists already.`;
  return null;
}

/** A name input that says its limit and any problem at the field, as the user types. */
export function NameField({ id, label, value, onChange, problem, touched }: { id: string; label: string; value: string; onChange: (v: string) => void; problem: string | null; touched: boolean }) {
  const show = touched && problem !== null;
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <div className="name-field">
        <input id={id} value={value} onChange={(e) => onChange(e.target.value)} required aria-invalid={show || undefined} aria-describedby={`${id}-limit${show ? ` ${id}-problem` : ''}`} />
        <span id={`${id}-limit`} className={`help${value.length > NAME_LIMIT ? ' over' : ''}`}>
          {value.length} of {NAME_LIMIT} characters
        </span>
        {show && (
          <span id={`${id}-problem`} className="field-error" role="alert">
            {problem}
          </span>
        )}
      </div>
    </>
  );
}
