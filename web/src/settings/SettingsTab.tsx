import { useEffect, useMemo, useState } from 'react';
import { ApiError, call } from '../api.js';
import { useApi } from '../useApi.js';
import type { Cluster } from '../types.js';
import { Problems } from '../components/Problems.js';
import { changesOf, placeRefusal, problemsOf, sectionsOf, type Attributes, type PlacedRefusal } from './model.js';
import { SectionFields } from './SectionFields.js';
import { PluginToggle } from './PluginToggle.js';

/**
 * Settings as the release and the enabled plugins define them, with their restrictions applied as
 * values change. Only what changed is sent; the server's refusals are shown at the field or plugin
 * they concern.
 */
export function SettingsTab({ cluster }: { cluster: Cluster }) {
  const attrs = useApi('/clusters/{id}/attributes', { params: { id: cluster.id } });
  const [draft, setDraft] = useState<Attributes | null>(null);
  const [plugins, setPlugins] = useState<Record<string, string | null>>({});
  const [refusal, setRefusal] = useState<PlacedRefusal | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!attrs.data) return;
    setDraft(structuredClone(attrs.data));
    setPlugins({});
  }, [attrs.data]);
  const context = useMemo(() => ({ settings: draft?.editable ?? {}, cluster: { name: cluster.name, status: cluster.status ?? 'new' } }), [draft, cluster.name, cluster.status]);
  const problems = useMemo(() => (attrs.data && draft ? problemsOf(attrs.data, draft, context) : new Map<string, string>()), [attrs.data, draft, context]);

  if (attrs.loading && !draft) return <p aria-busy="true">Loading settings…</p>;
  if (attrs.error) return <Problems error={attrs.error} title="Cannot read the settings" />;
  if (!draft || !attrs.data) return null;
  const original = attrs.data;

  const setValue = (section: string, field: string, value: unknown) => {
    setSaved(null);
    setDraft((d) => {
      const next = { ...d!, editable: { ...d!.editable, [section]: { ...d!.editable[section], [field]: { ...(d!.editable[section][field] as object), value } } } };
      return next;
    });
  };
  const setSectionEnabled = (section: string, enabled: boolean) => {
    setSaved(null);
    setDraft((d) => ({ ...d!, editable: { ...d!.editable, [section]: { ...d!.editable[section], metadata: { ...d!.editable[section].metadata, enabled } } } }));
  };
  const setPlugin = (name: string, version: string | null, initial: string | null) => {
    setSaved(null);
    setPlugins((p) => {
      const next = { ...p };
      if (version === initial) delete next[name];
      else next[name] = version;
      return next;
    });
  };

  const save = async () => {
    setError(null);
    setRefusal(null);
    setSaved(null);
    const body = changesOf(original, draft, plugins);
    if (!body.editable && !body.plugins) {
      setSaved('Nothing changed.');
      return;
    }
    setBusy(true);
    try {
      const answer = await call('put', '/clusters/{id}/attributes', { params: { id: cluster.id }, body });
      setSaved(`Saved.${answer.changed.length ? ` ${answer.changed.length} setting${answer.changed.length === 1 ? '' : 's'} changed.` : ''}`);
      attrs.reload();
    } catch (e) {
      if (e instanceof ApiError && e.status !== 401) {
        const placed = placeRefusal(e.message, e.details);
        setRefusal(placed);
        // A refused plugin change is undone on the page too: its box shows what the server keeps, with why.
        if (placed.byPlugin.size)
          setPlugins((current) => {
            const next = { ...current };
            for (const name of placed.byPlugin.keys()) delete next[name];
            return next;
          });
      } else setError(e);
    } finally {
      setBusy(false);
    }
  };

  const pluginNames = new Set((draft.plugins ?? []).map((p) => p.name));
  return (
    <form
      className="settings"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {sectionsOf(draft.editable)
        .filter(([name]) => !pluginNames.has(name))
        .map(([name, section]) => (
          <SectionFields key={name} name={name} section={section} context={context} problems={problems} refusals={refusal?.bySetting} onValue={setValue} onEnabled={setSectionEnabled} />
        ))}
      {(draft.plugins ?? []).length > 0 && <h2 className="section-title">Plugins</h2>}
      {(draft.plugins ?? []).map((p) => {
        const wanted = Object.hasOwn(plugins, p.name) ? plugins[p.name] : p.enabled ? p.chosen_version : null;
        const section = draft.editable[p.name];
        return (
          <fieldset key={p.name} className="group plugin" data-plugin={p.name}>
            <PluginToggle plugin={p} wanted={wanted} onChange={(v) => setPlugin(p.name, v, p.enabled ? p.chosen_version : null)} refusal={refusal?.byPlugin.get(p.name)} />
            {wanted !== null && section && p.enabled && (
              <SectionFields name={p.name} section={section} context={context} problems={problems} refusals={refusal?.bySetting} onValue={setValue} onEnabled={setSectionEnabled} bare />
            )}
            {wanted !== null && !p.enabled && <p className="note">Its settings appear here once the plugin is enabled (Save settings).</p>}
          </fieldset>
        );
      })}
      <Problems error={error} title="The settings were not saved" />
      {refusal && refusal.rest.length > 0 && (
        <div className="problems" role="alert">
          <strong>The settings were not saved</strong>
          <ul>
            {refusal.rest.map((m, i) => (
              <li key={i}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      {refusal && refusal.rest.length === 0 && (
        <p className="why" role="alert">
          The settings were not saved: see the reasons at the fields and plugins marked above.
        </p>
      )}
      {saved && <p role="status">{saved}</p>}
      <div className="actions">
        {problems.size > 0 && <span className="why">Fix the values marked above to save ({problems.size}).</span>}
        <button type="submit" className="primary" disabled={busy || problems.size > 0}>
          Save settings
        </button>
      </div>
    </form>
  );
}
