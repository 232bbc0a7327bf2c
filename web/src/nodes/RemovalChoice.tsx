import type { NodeView as Node } from './realNode.js';

const names = (nodes: Node[]) => nodes.map((n) => n.name).join(', ');

/**
 * Removing deployed nodes is a choice with consequences on the hosts, so it is said before it is
 * made: clean them (the environment's deletion graph runs on them; they are removing meanwhile and
 * leave when it succeeded) or forget them (nothing runs; the hosts keep what was deployed).
 */
export function RemovalChoice({ cluster, chosen, deployed, onChoose, onCancel, environment = false }: { cluster: string; chosen: Node[]; deployed: Node[]; onChoose: (clean: boolean) => void; onCancel: () => void; environment?: boolean }) {
  const others = chosen.filter((n) => !deployed.includes(n));
  const n = deployed.length;
  return (
    <div className="notice removal-choice" role="dialog" aria-label="Remove nodes" data-testid="removal-choice">
      <p>
        {environment ? `Delete ${cluster} (its settings and deployment history go with it).` : `Remove ${chosen.length} node${chosen.length === 1 ? '' : 's'} from ${cluster}.`} {n === 1 ? `${names(deployed)} is deployed` : `${n} of them are deployed (${names(deployed)})`}: the deletion graph runs on{' '}
        {n === 1 ? 'it' : 'them'} first, and {environment ? `the environment is deleted when that succeeded on every node (shown as Removing meanwhile)` : `${n === 1 ? 'it leaves' : 'each leaves'} the environment when that succeeded (shown as Removing meanwhile)`}.
        {others.length ? ` ${names(others)} ${others.length === 1 ? 'was' : 'were'} never deployed and ${others.length === 1 ? 'leaves' : 'leave'} at once.` : ''}
      </p>
      <div className="actions">
        <button type="button" onClick={() => onChoose(true)}>
          Run the deletion graph on {n} deployed node{n === 1 ? '' : 's'}
        </button>
        <button type="button" onClick={() => onChoose(false)}>
          Forget without cleaning (the host{n === 1 ? ' keeps' : 's keep'} what was deployed)
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
