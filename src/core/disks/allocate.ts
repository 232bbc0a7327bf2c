import type { LayoutInput, NodeLayout } from './model.js';

/** The default layout of a node (Fuel's `gen_volumes_info`). */
export function defaultLayout(input: LayoutInput): NodeLayout {
  void input;
  throw new Error('defaultLayout: not implemented yet (issue 26)');
}
