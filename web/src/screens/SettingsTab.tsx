import { useEffect, useState } from 'react';
import { api } from '../api.js';
import { useApi } from '../useApi.js';
import type { Cluster } from '../types.js';
import { Problems } from '../components/Problems.js';

type Attr = { type?: string; value?: unknown; label?: string; description?: string; values?: Array<{ data: string; label?: string }>; weight?: number };
type SectionMeta = {
  label?: string;
  enabled?: boolean;
  toggleable?: boolean;
  weight?: number;
  class?: string;
  plugin?: { name: string; version?: string } | string;
  versions?: Array<{ metadata?: { plugin_id?: string | number; plugin_version?: string } }>;
  chosen_id?: string | number;
  /** Why a section or attribute cannot be changed right now, as the server's rules say. */
  disabled_reasons?: string[];
};
type Section = { metadata?: SectionMeta } & Record<string, unknown>;
type Attributes = { editable: Record<string, Section> };

const sorted = <T extends { weight?: number }>(entries: Array<[string, T]>) => entries.sort((a, b) => (a[1].weight ?? 0) - (b[1].weight ?? 0) || a[0].localeCompare(b[0]));

/** Settings sections, plugin sections with enable and version choice; the server explains refusals. */
export function SettingsTab({ cluster }: { cluster: Cluster }) {
  const attrs = useApi<Attributes>(`/clusters/${cluster.id}/attributes`);
  const [draft, setDraft] = useState<Attributes | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => setDraft(attrs.data ? structuredClone(attrs.data) : null), [attrs.data]);
  if (attrs.loading && !draft) return <p aria-busy="true">Loading settings…</p>;
  if (attrs.error) return <Problems error={attrs.error} />;
  if (!draft) return null;

  const update = (section: string, key: string | null, value: unknown) => {
    setSaved(false);
    setDraft((d) => {
      const next = structuredClone(d!);
      const s = next.editable[section];
      if (key === null) s.metadata = { ...(s.metadata ?? {}), enabled: Boolean(value) };
      else if (key === '__version') s.metadata = { ...(s.metadata ?? {}), chosen_id: value as string };
      else (s[key] as Attr).value = value;
      return next;
    });
  };

  const save = async () => {
    setError(null);
    try {
      await api('PUT', `/clusters/${cluster.id}/attributes`, { editable: draft.editable });
      setSaved(true);
      attrs.reload();
    } catch (e) {
      setError(e);
    }
  };

  const sections = sorted(Object.entries(draft.editable).map(([k, v]) => [k, { ...v, weight: v.metadata?.weight }] as [string, Section & { weight?: number }]));
  return (
    <form
      className="settings"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {sections.map(([name, section]) => {
        const meta = section.metadata ?? {};
        const isPlugin = Boolean(meta.plugin || meta.class === 'plugin' || meta.versions);
        const reasons = meta.disabled_reasons ?? [];
        const attrsOf = sorted(Object.entries(section).filter(([k, v]) => k !== 'metadata' && k !== 'weight' && v && typeof v === 'object') as Array<[string, Attr]>);
        return (
          <fieldset key={name} className={isPlugin ? 'group plugin' : 'group'}>
            <legend>
              {meta.toggleable || isPlugin ? (
                <label>
                  <input type="checkbox" checked={Boolean(meta.enabled)} aria-describedby={reasons.length ? `${name}-why` : undefined} onChange={(e) => update(name, null, e.target.checked)} />{' '}
                  {meta.label ?? name}
                </label>
              ) : (
                (meta.label ?? name)
              )}
              {isPlugin && <span className="badge">plugin</span>}
            </legend>
            {reasons.length > 0 && (
              <p id={`${name}-why`} className="why">
                {reasons.join(' ')}
              </p>
            )}
            {meta.versions && meta.versions.length > 1 && (
              <div className="field">
                <label htmlFor={`${name}-version`}>Plugin version</label>
                <select id={`${name}-version`} value={String(meta.chosen_id ?? '')} onChange={(e) => update(name, '__version', e.target.value)}>
                  {meta.versions.map((v, i) => (
                    <option key={i} value={String(v.metadata?.plugin_id ?? i)}>
                      {v.metadata?.plugin_version ?? String(v.metadata?.plugin_id)}
                    </option>
                  ))}
                </select>
              </div>
            )}
            {attrsOf
              .filter(([, a]) => a.type !== 'hidden')
              .map(([key, a]) => (
                <AttrField key={key} id={`${name}-${key}`} attr={a} onChange={(v) => update(name, key, v)} />
              ))}
          </fieldset>
        );
      })}
      <Problems error={error} title="The settings were not saved" />
      {saved && <p role="status">Saved.</p>}
      <div className="actions">
        <button type="submit" className="primary">
          Save settings
        </button>
      </div>
    </form>
  );
}

function AttrField({ id, attr, onChange }: { id: string; attr: Attr; onChange: (v: unknown) => void }) {
  const label = attr.label ?? id;
  if (attr.type === 'checkbox') {
    return (
      <div className="field">
        <input id={id} type="checkbox" checked={Boolean(attr.value)} onChange={(e) => onChange(e.target.checked)} />
        <label htmlFor={id} title={attr.description}>
          {label}
        </label>
      </div>
    );
  }
  if ((attr.type === 'select' || attr.type === 'radio') && attr.values) {
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <select id={id} value={String(attr.value ?? '')} onChange={(e) => onChange(e.target.value)}>
          {attr.values.map((v) => (
            <option key={v.data} value={v.data}>
              {v.label ?? v.data}
            </option>
          ))}
        </select>
      </div>
    );
  }
  const numeric = attr.type === 'number';
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={attr.type === 'password' ? 'password' : numeric ? 'number' : 'text'}
        value={attr.value === undefined || attr.value === null ? '' : String(attr.value)}
        onChange={(e) => onChange(numeric ? Number(e.target.value) : e.target.value)}
      />
    </div>
  );
}
