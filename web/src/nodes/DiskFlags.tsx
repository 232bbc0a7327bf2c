import { useEffect, useState } from 'react';
import { call } from '../api.js';

/**
 * The environment's nodes whose disk layout has a problem (issue 26): a saved layout that no
 * longer fits the node's roles, a volume below its minimum (a deployment refuses the node), each
 * from `GET /nodes/{id}/disks/check`, flagged on the Nodes tab with a way to open the node.
 * Asked a few at a time, again whenever the node list changes (roles saved, a layout saved).
 */

type Flag = { id: number; name: string; messages: string[] };
const AT_ONCE = 6;

export function DiskFlags({ nodes, onOpen }: { nodes: ReadonlyArray<{ id: number; name: string; roles: string[]; pending_roles: string[] }> | undefined; onOpen: (id: string) => void }) {
  const [flags, setFlags] = useState<Flag[]>([]);
  // The node list as loaded (a new one on each reload: roles saved, a layout saved): checked again then.
  useEffect(() => {
    let live = true;
    // Only nodes with roles have volumes.
    const withRoles = (nodes ?? []).filter((n) => n.roles.length + n.pending_roles.length > 0);
    const found: Flag[] = [];
    const next = async (queue: typeof withRoles) => {
      for (let n = queue.shift(); n; n = queue.shift()) {
        const check = await call('get', '/nodes/{id}/disks/check', { params: { id: n.id } }).catch(() => null);
        const messages = (check?.findings ?? []).filter((f) => f.severity === 'error').map((f) => f.message);
        if (messages.length) found.push({ id: n.id, name: n.name, messages });
      }
    };
    const queue = [...withRoles];
    void Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, () => next(queue))).then(() => {
      if (live) setFlags(found.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true })));
    });
    return () => {
      live = false;
    };
  }, [nodes]);

  if (!flags.length) return null;
  return (
    <div className="problems" role="alert" data-testid="disk-flags">
      <strong>
        {flags.length} node{flags.length === 1 ? "'s disk layout needs" : "s' disk layouts need"} fixing before deploying
      </strong>
      <ul>
        {flags.map((f) => (
          <li key={f.id} data-node={f.name}>
            <button type="button" className="link" onClick={() => onOpen(String(f.id))}>
              {f.name}
            </button>
            : {f.messages.join('; ')}
          </li>
        ))}
      </ul>
    </div>
  );
}
