import { useEffect, useMemo, useState } from 'react';
import { call } from '../api.js';
import { useApi } from '../useApi.js';
import { go } from '../route.js';
import type { ComponentState, WizardState } from '../types.js';
import { GROUPS, byWeight, groupOf, type Pane } from '../components/groups.js';
import { groupBy } from '../components/groupBy.js';
import { Choice } from '../components/Choice.js';
import { Problems } from '../components/Problems.js';
import { NameField, nameProblem } from '../components/NameField.js';

const STEPS: Array<{ id: 'start' | Pane | 'review'; title: string }> = [
  { id: 'start', title: 'Name and release' },
  { id: 'compute', title: 'Compute' },
  { id: 'network', title: 'Networking' },
  { id: 'storage', title: 'Storage' },
  { id: 'additional', title: 'Additional services' },
  { id: 'review', title: 'Review' },
];

export function Wizard() {
  const releases = useApi('/releases');
  const clusters = useApi('/clusters');
  const [step, setStep] = useState(0);
  const [name, setName] = useState('');
  const [releaseId, setReleaseId] = useState<string>('');
  const [selection, setSelection] = useState<string[] | null>(null);
  const [state, setState] = useState<WizardState | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const catalog = useApi(releaseId ? '/releases/{id}/components' : null, { params: { id: releaseId } });
  const meta = useMemo(() => new Map((catalog.data ?? []).map((c) => [c.name, c])), [catalog.data]);

  useEffect(() => {
    if (!releaseId && releases.data?.length) setReleaseId(String(releases.data[0].id));
  }, [releases.data, releaseId]);

  // A new release starts from its default components (those the release marks `default: true`),
  // read from its own catalog: the previous release's is still at hand while the new one loads.
  useEffect(() => {
    if (selection === null && catalog.current && catalog.data) setSelection(catalog.data.filter((c) => c.default).map((c) => c.name));
  }, [catalog.data, catalog.current, selection]);

  // The pane the engine is asked about: the one shown (the first before it, the last after it).
  const stepId = STEPS[step].id;
  const pane: Pane = stepId === 'start' ? 'compute' : stepId === 'review' ? 'additional' : stepId;

  // Ask the engine for the state of the shown pane's components after each click and on entering
  // a pane: it alone decides what is enabled. Only that pane's components are proved, as Fuel's
  // wizard checked each pane as it was shown; the others come back `unchecked` (issue 30).
  useEffect(() => {
    if (!releaseId || selection === null) return;
    let live = true;
    call('get', '/releases/{id}/components/state', { params: { id: releaseId }, query: { select: selection.join(','), pane } }).then(
      (s) => {
        if (!live) return;
        setState({ ...s, components: s.components.map((c) => ({ ...c, description: meta.get(c.name)?.description, plugin: meta.get(c.name)?.plugin ?? null })) });
      },
      (e) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [releaseId, selection, meta, pane]);

  // Each group's choices ordered by weight, as the design asks (the catalog carries it).
  const byGroup = useMemo(() => {
    const map = groupBy<ComponentState, string>(state?.components ?? [], groupOf);
    const weightOf = (name: string) => {
      const w = (meta.get(name) as { weight?: unknown } | undefined)?.weight;
      return typeof w === 'number' ? w : undefined;
    };
    for (const [g, items] of map) map.set(g, byWeight(items, weightOf));
    return map;
  }, [state, meta]);

  if (releases.loading) return <p aria-busy="true">Loading…</p>;
  if ((releases.data ?? []).length === 0) {
    return (
      <div className="notice" role="status">
        <h1>No release is installed</h1>
        <p>
          Install a release plugin on the <a href="#/plugins">Plugins</a> page before creating an environment.
        </p>
      </div>
    );
  }

  const toggle = (c: ComponentState, kind: 'radio' | 'checkbox', group: string) => {
    const current = selection ?? [];
    let next: string[];
    if (kind === 'radio') {
      // The engine says what choosing this radio button unselects (its sibling, and what only the sibling needed).
      const replaced = new Set(c.replaces ?? []);
      const others = (byGroup.get(group) ?? []).map((o) => o.name);
      next = [...current.filter((n) => !replaced.has(n) && !others.includes(n)), c.name];
    } else {
      next = current.includes(c.name) ? current.filter((n) => n !== c.name) : [...current, c.name];
    }
    setError(null);
    setSelection(next);
  };

  const current = STEPS[step];
  // The pane shown is drawn once the engine has answered for it: the state in hand may have been
  // asked for the pane before, and a choice drawn from it would be greyed ("unchecked") for the
  // moment the answer takes, and a click on it in that moment lost.
  const answering = state !== null && state.components.some((c) => c.unchecked === true && GROUPS.find((g) => g.id === groupOf(c))?.pane === current.id);
  // Checked as the user types: the limit, and names taken already (the server checks again on create).
  const problem = nameProblem(name, (clusters.data ?? []).map((c) => c.name));
  const pluginsToEnable = [
    ...new Map(
      (state?.components ?? [])
        .filter((c) => c.checked && c.plugin)
        .map((c) => [`${c.plugin!.name}@${c.plugin!.version}`, c.plugin!]),
    ).values(),
  ];

  const create = async () => {
    setBusy(true);
    setError(null);
    try {
      const cluster = await call('post', '/clusters', { body: { name, release_id: releaseId, components: selection ?? [] } });
      go(`env/${cluster.id}/nodes`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="wizard" aria-labelledby="wizard-title">
      <h1 id="wizard-title">New environment</h1>
      <ol className="steps" aria-label="Steps">
        {STEPS.map((s, i) => (
          <li key={s.id} aria-current={i === step ? 'step' : undefined} className={i < step ? 'done' : ''}>
            {s.title}
          </li>
        ))}
      </ol>
      <div className="pane">
        <h2>{current.title}</h2>
        {current.id === 'start' && (
          <div className="form">
            <NameField id="env-name" label="Name" value={name} onChange={setName} problem={problem} touched={name.length > 0} />
            <label htmlFor="env-release">Release</label>
            <select
              id="env-release"
              value={releaseId}
              onChange={(e) => {
                setReleaseId(e.target.value);
                setSelection(null);
              }}
            >
              {(releases.data ?? []).map((r) => (
                <option key={r.id} value={String(r.id)}>
                  {r.name} ({r.version}, {r.operating_system})
                </option>
              ))}
            </select>
          </div>
        )}
        {answering && (
          <p className="muted" aria-busy="true" data-testid="pane-checking">
            Checking the choices…
          </p>
        )}
        {!answering && GROUPS.filter((g) => g.pane === current.id).map((g) => {
          const items = byGroup.get(g.id) ?? [];
          if (items.length === 0) return null;
          return (
            <fieldset key={g.id} className={`group ${g.nested ? 'nested' : ''}`} data-group={g.id}>
              <legend>{g.title}</legend>
              {items.map((c) => (
                // The engine alone says what is enabled: a driver disabled only because ML2 is not chosen yet must not disable ML2.
                <Choice key={c.name} c={c} kind={g.kind} name={g.id} onToggle={() => toggle(c, g.kind, g.id)} />
              ))}
            </fieldset>
          );
        })}
        {current.id === 'review' && state && (
          <div className="review">
            <p>
              <strong>{name || '(no name)'}</strong> on {(releases.data ?? []).find((r) => String(r.id) === releaseId)?.name}
            </p>
            <h3>Components</h3>
            <ul>
              {state.components
                .filter((c) => c.checked)
                .map((c) => (
                  <li key={c.name}>
                    {c.label ?? c.name} <code>{c.name}</code>
                  </li>
                ))}
            </ul>
            <h3>Plugins that will be enabled</h3>
            {pluginsToEnable.length === 0 ? (
              <p>None.</p>
            ) : (
              <ul>
                {pluginsToEnable.map((p) => (
                  <li key={`${p.name}@${p.version}`}>
                    {p.name} {p.version}
                  </li>
                ))}
              </ul>
            )}
            {!state.valid && (
              <div className="problems" role="alert">
                <strong>This selection is not complete yet</strong>
                <ul>{(state.findings ?? []).map((f, i) => <li key={i}>{f.message}</li>)}</ul>
              </div>
            )}
          </div>
        )}
      </div>
      <Problems error={error} />
      <div className="actions">
        <button type="button" disabled={step === 0} onClick={() => setStep(step - 1)}>
          Back
        </button>
        {step < STEPS.length - 1 ? (
          <button type="button" className="primary" disabled={step === 0 && problem !== null} onClick={() => setStep(step + 1)}>
            Next
          </button>
        ) : (
          <button type="button" className="primary" disabled={busy || problem !== null || !state?.valid} onClick={create}>
            Create environment
          </button>
        )}
      </div>
    </section>
  );
}
