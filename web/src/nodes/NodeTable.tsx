import type { Role } from '../types.js';
import { conflictReason } from './roleRules.js';
import { hostKeyChanged, type NodeView as Node } from './realNode.js';
import { NodeStatusCell } from '../components/NodeStatus.js';

interface Props {
  nodes: Node[];
  roles: Role[];
  restricted: ReadonlyMap<string, string>;
  draft: Record<string, string[]>;
  selected: Set<string>;
  onSelect: (ids: string[], on: boolean) => void;
  onToggle: (nodeId: string, role: string) => void;
  onOpen: (nodeId: string) => void;
}

/**
 * One row per node: select it, see its status and roles, tick roles one by one. A role that
 * conflicts with one the node holds is disabled with the reason; a deployed role is locked (it
 * leaves the node only when the node is removed); a node without roles is flagged.
 */
export function NodeTable({ nodes, roles, restricted, draft, selected, onSelect, onToggle, onOpen }: Props) {
  const byName = new Map(roles.map((r) => [r.name, r]));
  const allSelected = nodes.length > 0 && nodes.every((n) => selected.has(String(n.id)));
  return (
    <div className="table-wrap">
      <table className="roles-table">
        <caption>Roles per node</caption>
        <thead>
          <tr>
            <th scope="col">
              <input type="checkbox" aria-label="Select every node shown" checked={allSelected} onChange={(e) => onSelect(nodes.map((n) => String(n.id)), e.target.checked)} />
            </th>
            <th scope="col">Node</th>
            <th scope="col">Status</th>
            {roles.map((r) => (
              <th scope="col" key={r.name} title={r.description}>
                {r.label ?? r.name}
                {r.source && r.source !== 'release' && <span className="badge">{r.source}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {nodes.map((n) => {
            const key = String(n.id);
            const held = draft[key] ?? [];
            return (
              <tr key={key} data-node={n.name} className={selected.has(key) ? 'selected' : undefined}>
                <td>
                  <input type="checkbox" aria-label={`Select ${n.name}`} checked={selected.has(key)} onChange={(e) => onSelect([key], e.target.checked)} />
                </td>
                <th scope="row">
                  <button type="button" className="link" title="Details: how Hearth reaches it, its host key and facts" onClick={() => onOpen(key)}>
                    {n.name}
                  </button>
                  {n.simulated === false ? <span className="muted address"> {n.address}</span> : <span className="badge">simulated</span>}
                  {hostKeyChanged(n) && (
                    <span className="badge bad-badge" title="Open the node to see both fingerprints and accept the new key">
                      host key changed
                    </span>
                  )}
                  {held.length === 0 && (
                    <span className="badge warn" title="A node without roles is not deployed">
                      no roles
                    </span>
                  )}
                  {n.roles.length > 0 && <span className="muted"> deployed: {n.roles.join(', ')}</span>}
                </th>
                <NodeStatusCell node={n} />
                {roles.map((r) => {
                  const deployed = n.roles.includes(r.name);
                  const has = held.includes(r.name);
                  const conflict = has ? null : restricted.has(r.name) ? restricted.get(r.name)! : conflictReason(r.name, held, byName);
                  const locked = deployed || conflict !== null;
                  const why = locked ? `why-${key}-${r.name}` : undefined;
                  return (
                    <td key={r.name} className={conflict ? 'conflicting' : undefined}>
                      <input
                        type="checkbox"
                        aria-label={`${r.name} on ${n.name}`}
                        checked={has}
                        aria-disabled={locked || undefined}
                        aria-describedby={why}
                        title={conflict ? `${conflict}.` : undefined}
                        onClick={(e) => {
                          if (locked) e.preventDefault();
                        }}
                        onChange={() => {
                          if (!locked) onToggle(key, r.name);
                        }}
                      />
                      {why && (
                        <span id={why} className="sr-only">
                          {deployed ? `${r.name} is deployed on ${n.name}: it is removed only by removing the node from the environment (the deletion graph runs then).` : `${conflict}.`}
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
