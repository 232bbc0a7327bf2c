import type { ReactNode } from 'react';
import type { Attr, Verdict } from './model.js';

interface FieldProps {
  id: string;
  attr: Attr;
  /** The label, made unique within its section when two fields share one. */
  label: string;
  verdict: Verdict;
  /** The value check's or the server's words, shown at the field. */
  errors: string[];
  onChange: (value: unknown) => void;
}

/**
 * One setting, drawn by its Fuel type. A field a `disable` restriction holds is disabled with the
 * restriction's message; a value that does not fit is said under the field as the user types.
 */
export function SettingField({ id, attr, label, verdict, errors, onChange }: FieldProps) {
  const notes = [...verdict.messages];
  const describedBy = [notes.length ? `${id}-why` : '', errors.length ? `${id}-error` : '', attr.description ? `${id}-help` : ''].filter(Boolean).join(' ') || undefined;
  const common = { id, disabled: verdict.disabled, 'aria-describedby': describedBy, 'aria-invalid': errors.length ? true : undefined };
  const footer = (
    <>
      {attr.description && attr.description.trim() && (
        <p id={`${id}-help`} className="help">
          {attr.description.trim()}
        </p>
      )}
      {notes.length > 0 && (
        <p id={`${id}-why`} className={verdict.disabled ? 'why' : 'why note'}>
          {notes.join(' ')}
        </p>
      )}
      {errors.length > 0 && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {errors.join(' ')}
        </p>
      )}
    </>
  );
  const value = attr.value;
  switch (attr.type) {
    case 'checkbox':
      return (
        <div className="field check">
          <input {...common} type="checkbox" checked={Boolean(value)} onChange={(e) => onChange(e.target.checked)} />
          <label htmlFor={id}>{label}</label>
          {footer}
        </div>
      );
    case 'radio':
      return (
        <div className="field">
          <div role="radiogroup" aria-label={label} aria-describedby={describedBy} className="radios">
            <span className="field-label">{label}</span>
            {(attr.values ?? []).map((v, i) => (
              <label key={i} className="radio">
                <input type="radio" name={id} value={String(v.data)} checked={value === v.data} disabled={verdict.disabled} onChange={() => onChange(v.data)} /> {v.label ?? String(v.data)}
              </label>
            ))}
          </div>
          {footer}
        </div>
      );
    case 'select':
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <select {...common} value={String(value ?? '')} onChange={(e) => onChange((attr.values ?? []).find((v) => String(v.data) === e.target.value)?.data ?? e.target.value)}>
            {(attr.values ?? []).map((v, i) => (
              <option key={i} value={String(v.data)}>
                {v.label ?? String(v.data)}
              </option>
            ))}
          </select>
          {footer}
        </div>
      );
    case 'text':
    case 'password':
    case 'number':
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <input
            {...common}
            type={attr.type === 'password' ? 'password' : attr.type === 'number' ? 'number' : 'text'}
            min={attr.min}
            max={attr.max}
            autoComplete={attr.type === 'password' ? 'new-password' : 'off'}
            value={value === undefined || value === null ? '' : String(value)}
            onChange={(e) => onChange(attr.type === 'number' ? (e.target.value === '' ? null : Number(e.target.value)) : e.target.value)}
          />
          {footer}
        </div>
      );
    case 'textarea':
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <textarea {...common} rows={4} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)} />
          {footer}
        </div>
      );
    case 'text_list':
    case 'textarea_list':
      return <ListField id={id} label={label} multiline={attr.type === 'textarea_list'} items={Array.isArray(value) ? value.map(String) : []} disabled={verdict.disabled} describedBy={describedBy} onChange={onChange} footer={footer} />;
    case 'custom_repo_configuration':
      return <RepoField id={id} label={label} repos={Array.isArray(value) ? (value as Repo[]) : []} disabled={verdict.disabled} onChange={onChange} footer={footer} />;
    default:
      // A type Hearth does not draw: shown as it is stored, never as "[object Object]".
      return (
        <div className="field">
          <span className="field-label" id={`${id}-label`}>
            {label} <span className="badge">{attr.type ?? 'value'}</span>
          </span>
          <pre className="json" aria-labelledby={`${id}-label`}>
            {JSON.stringify(value, null, 2)}
          </pre>
          {footer}
        </div>
      );
  }
}

function ListField({ id, label, items, multiline, disabled, describedBy, onChange, footer }: { id: string; label: string; items: string[]; multiline: boolean; disabled: boolean; describedBy?: string; onChange: (v: unknown) => void; footer: ReactNode }) {
  const set = (i: number, v: string) => onChange(items.map((x, j) => (j === i ? v : x)));
  return (
    <div className="field list">
      <span className="field-label" id={`${id}-label`}>
        {label}
      </span>
      <ul aria-labelledby={`${id}-label`} aria-describedby={describedBy}>
        {items.map((item, i) => (
          <li key={i}>
            {multiline ? (
              <textarea aria-label={`${label}, item ${i + 1}`} rows={3} value={item} disabled={disabled} onChange={(e) => set(i, e.target.value)} />
            ) : (
              <input aria-label={`${label}, item ${i + 1}`} value={item} disabled={disabled} onChange={(e) => set(i, e.target.value)} />
            )}
            <button type="button" disabled={disabled} onClick={() => onChange(items.filter((_, j) => j !== i))} aria-label={`Remove item ${i + 1} of ${label}`}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <button type="button" disabled={disabled} onClick={() => onChange([...items, ''])}>
        Add to {label}
      </button>
      {footer}
    </div>
  );
}

interface Repo {
  name?: string;
  type?: string;
  uri?: string;
  suite?: string;
  section?: string;
  priority?: number | null;
}
const REPO_COLUMNS: Array<keyof Repo> = ['name', 'type', 'uri', 'suite', 'section', 'priority'];

/** Fuel's repository list: one row per repository, every column editable. */
function RepoField({ id, label, repos, disabled, onChange, footer }: { id: string; label: string; repos: Repo[]; disabled: boolean; onChange: (v: unknown) => void; footer: ReactNode }) {
  const set = (i: number, key: keyof Repo, v: string) => onChange(repos.map((r, j) => (j === i ? { ...r, [key]: key === 'priority' ? (v === '' ? null : Number(v)) : v } : r)));
  return (
    <div className="field list">
      <div className="table-wrap">
        <table id={id}>
          <caption>{label}</caption>
          <thead>
            <tr>
              {REPO_COLUMNS.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {repos.map((r, i) => (
              <tr key={i}>
                {REPO_COLUMNS.map((c) => (
                  <td key={c}>
                    <input aria-label={`${c} of repository ${r.name ?? i + 1}`} value={r[c] === undefined || r[c] === null ? '' : String(r[c])} disabled={disabled} onChange={(e) => set(i, c, e.target.value)} />
                  </td>
                ))}
                <td>
                  <button type="button" disabled={disabled} onClick={() => onChange(repos.filter((_, j) => j !== i))}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button type="button" disabled={disabled} onClick={() => onChange([...repos, { name: '', type: 'deb', uri: '', suite: '', section: '', priority: null }])}>
        Add a repository
      </button>
      {footer}
    </div>
  );
}
