import type { DiskProblem, LayoutDisk, LayoutInput, NodeLayout } from './model.js';

/** What the operator saved: disks by id with their volumes' sizes. */
export type SavedLayout = Array<Pick<LayoutDisk, 'id'> & { volumes: Array<{ name: string; size: number; keep_data?: boolean }> }>;

export interface AppliedLayout {
  layout: NodeLayout;
  problems: DiskProblem[];
}

/** Minimums per volume across free disks, disks overfull, unknown volume names. */
export function checkLayout(layout: NodeLayout, input: LayoutInput): DiskProblem[] {
  void layout;
  void input;
  throw new Error('checkLayout: not implemented yet (issue 26)');
}

/** The operator's saved sizes laid over fresh defaults: kept where they still fit, problems where not. */
export function applyOperatorSizes(defaults: NodeLayout, saved: SavedLayout, input: LayoutInput): AppliedLayout {
  void defaults;
  void saved;
  void input;
  throw new Error('applyOperatorSizes: not implemented yet (issue 26)');
}
