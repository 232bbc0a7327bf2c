import type { PluginSection } from './model.js';

interface Props {
  plugin: PluginSection;
  /** The version the user wants enabled, or null for disabled. */
  wanted: string | null;
  onChange: (version: string | null) => void;
  /** The server's refusal of the last save, when it concerns this plugin. */
  refusal?: string[];
}

/**
 * A plugin's switch and version. A plugin the server says cannot be disabled (its roles are held,
 * the environment was deployed with it) keeps its box ticked and says why, before any click.
 */
export function PluginToggle({ plugin, wanted, onChange, refusal }: Props) {
  const id = `plugin-${plugin.name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const fitting = plugin.versions.filter((v) => v.fits);
  const locked = plugin.enabled && plugin.locked_reason !== null;
  const why = locked ? `${id}-why` : undefined;
  return (
    <>
      <legend>
        <label>
          <input
            type="checkbox"
            checked={wanted !== null}
            aria-disabled={locked || undefined}
            aria-describedby={why}
            onClick={(e) => {
              if (locked) e.preventDefault();
            }}
            onChange={(e) => {
              if (locked) return;
              onChange(e.target.checked ? (plugin.chosen_version ?? fitting[fitting.length - 1]?.version ?? plugin.versions[0].version) : null);
            }}
          />{' '}
          {plugin.title}
        </label>
        <span className="badge">plugin {plugin.name}</span>
      </legend>
      {locked && (
        <p id={why} className="why">
          It cannot be disabled: {plugin.locked_reason}.
        </p>
      )}
      {plugin.versions.length > 1 && (
        <div className="field">
          <label htmlFor={`${id}-version`}>Plugin version</label>
          <select id={`${id}-version`} value={wanted ?? plugin.chosen_version ?? ''} disabled={wanted === null} onChange={(e) => onChange(e.target.value)}>
            {plugin.versions.map((v) => (
              <option key={v.id} value={v.version} disabled={!v.fits}>
                {v.version}
                {v.fits ? '' : ` (${v.reason})`}
              </option>
            ))}
          </select>
        </div>
      )}
      {refusal && refusal.length > 0 && (
        <p className="refusal" role="alert">
          {refusal.join(' ')}
        </p>
      )}
    </>
  );
}
