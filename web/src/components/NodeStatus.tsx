/**
 * A node's status where a page shows it: the lifecycle model's label (NODE_MEANING), its meaning
 * as the tooltip, and the latest word of the environment's live stream when the page follows one
 * (screens/environmentStream.ts), so a node going offline or a run ending shows without a reload.
 */
import { useContext } from 'react';
import { LiveNodes } from '../screens/environmentStream.js';
import type { Node } from '../types.js';
import { nodeLabel, nodeMeaning } from './states.js';

/** The node as the live stream last sent it, when it did (and it is still in the same environment). */
export function useLiveNode<N extends Pick<Node, 'id' | 'status' | 'cluster_id'>>(node: N): N {
  const live = useContext(LiveNodes).get(node.id);
  return live && live.cluster_id === node.cluster_id ? { ...node, status: live.status, ...('reach_error' in live ? { reach_error: live.reach_error } : {}) } : node;
}

/** A table cell: the label, marked bad when the node is offline or in error. */
export function NodeStatusCell({ node }: { node: Node }) {
  const n = useLiveNode(node);
  const bad = n.status === 'offline' || n.status === 'error';
  return (
    <td className={bad ? 'bad' : undefined} data-status={n.status} title={n.status === 'offline' && n.reach_error ? n.reach_error.message : nodeMeaning(n.status)}>
      {nodeLabel(n.status)}
    </td>
  );
}

/** A line: the label and what it means. */
export function NodeStatusLine({ node }: { node: Node }) {
  const n = useLiveNode(node);
  const meaning = nodeMeaning(n.status);
  return (
    <span className="muted" data-testid="node-status" data-status={n.status}>
      {nodeLabel(n.status)}
      {meaning ? `: ${meaning}` : ''}
    </span>
  );
}
