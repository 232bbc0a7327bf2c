import { useEffect, useRef } from 'react';
import type { Node, Role } from '../types.js';
import { conflictReason, roleLabel } from './roleRules.js';

interface Props {
  roles: Role[];
  /** Roles the settings rule out, with why. */
  restricted: ReadonlyMap<string, string>;
  selected: Node[];
  draft: Record<string, string[]>;
  onSet: (role: string, on: boolean) => void;
}

/**
 * Roles for the selected nodes at once. A role that conflicts with what a selected node holds is
 * disabled before any click, with the reason; a role some selected nodes have shows as mixed.
 */
export function RolesPanel({ roles, restricted, selected, draft, onSet }: Props) {
  const byName = new Map(roles.map((r) => [r.name, r]));
  return (
    <fieldset className="group roles-panel" aria-describedby="roles-panel-help">
      <legend>Roles for the selected nodes</legend>
      <p id="roles-panel-help" className="note">
        {selected.length === 0 ? 'Select nodes in the table to assign or remove roles on all of them at once.' : `${selected.length} node${selected.length === 1 ? '' : 's'} selected.`}
      </p>
      <div className="role-choices">
        {roles.map((r) => {
          const having = selected.filter((n) => (draft[String(n.id)] ?? []).includes(r.name));
          const all = selected.length > 0 && having.length === selected.length;
          const some = having.length > 0 && !all;
          const deployed = selected.filter((n) => n.roles.includes(r.name));
          let reason: string | null = null;
          if (selected.length === 0) reason = null;
          else if (all && deployed.length) reason = `${roleLabel(r, r.name)} is deployed on ${deployed.map((n) => n.name).join(', ')}: it leaves a node only when the node is removed.`;
          else if (!all && restricted.has(r.name)) reason = `${restricted.get(r.name)}.`;
          else if (!all) {
            for (const n of selected) {
              if ((draft[String(n.id)] ?? []).includes(r.name)) continue;
              const why = conflictReason(r.name, draft[String(n.id)] ?? [], byName);
              if (why) {
                reason = `${why} (${n.name}).`;
                break;
              }
            }
          }
          return <RoleChoice key={r.name} role={r} checked={all} mixed={some} disabled={selected.length === 0 || reason !== null} reason={reason} onChange={() => onSet(r.name, !all)} />;
        })}
      </div>
    </fieldset>
  );
}

function RoleChoice({ role, checked, mixed, disabled, reason, onChange }: { role: Role; checked: boolean; mixed: boolean; disabled: boolean; reason: string | null; onChange: () => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  const id = `panel-role-${role.name}`;
  return (
    <div className={`choice${disabled ? ' disabled' : ''}`} data-role={role.name}>
      <input
        ref={ref}
        id={id}
        type="checkbox"
        checked={checked}
        aria-checked={mixed ? 'mixed' : checked}
        aria-disabled={disabled || undefined}
        aria-describedby={reason ? `${id}-why` : undefined}
        onClick={(e) => {
          if (disabled) e.preventDefault();
        }}
        onChange={() => {
          if (!disabled) onChange();
        }}
      />
      <label htmlFor={id} title={role.description}>
        {role.label ?? role.name}
        {role.source && role.source !== 'release' && <span className="badge">{role.source}</span>}
      </label>
      {reason && (
        <p id={`${id}-why`} className="why">
          {reason}
        </p>
      )}
    </div>
  );
}
