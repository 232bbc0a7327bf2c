import type { ComponentState } from '../types.js';
import { sentence } from './words.js';

/**
 * One component in the wizard. A disabled choice stays focusable (aria-disabled, not `disabled`)
 * so keyboard and screen-reader users reach it and hear why it is disabled.
 */
export function Choice({ c, kind, name, onToggle }: { c: ComponentState; kind: 'radio' | 'checkbox'; name: string; onToggle: () => void }) {
  // Not proved yet (the state in hand was asked for another pane): greyed, and busy, for the
  // moment the pane's own state takes to come; no reason is shown, as it has none yet (a line
  // shown and gone at once on every pane entered would only make the page jump).
  const checking = c.unchecked === true;
  const reasons = checking ? ['Checking…'] : c.reasons;
  const disabled = !c.checked && !c.enabled;
  const id = `c-${c.name.replace(/[^a-z0-9]+/gi, '-')}`;
  const why = reasons.length && !checking ? `${id}-why` : undefined;
  return (
    <div className={`choice${disabled ? ' disabled' : ''}${c.green && !disabled ? ' green' : ''}`} data-component={c.name} aria-busy={checking || undefined}>
      <input
        id={id}
        type={kind}
        name={name}
        checked={c.checked}
        aria-disabled={disabled || undefined}
        aria-describedby={why}
        onChange={() => {
          if (!disabled) onToggle();
        }}
        onClick={(e) => {
          if (disabled) e.preventDefault();
        }}
      />
      <label htmlFor={id} title={disabled ? reasons.join(' ') : (c.description ?? '')}>
        {c.label ?? c.name}
        {c.plugin && <span className="badge">plugin {c.plugin.name}</span>}
        {c.green && !disabled && (
          <span className="badge good" title="Everything this component lists as compatible is selected">
            known good
          </span>
        )}
      </label>
      {why && (
        <p id={why} className={disabled ? 'why' : 'why note'}>
          {reasons.map(sentence).join(' ')}
          {disabled && c.fix.length > 0 && <span className="fix"> To enable it: {c.fix.join('; ')}.</span>}
        </p>
      )}
    </div>
  );
}
