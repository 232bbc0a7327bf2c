export { buildDeploymentGraph, nodeOfVertex, DEFAULT_DURATION_S } from './build.js';
export type { GraphInput, NodeInput, RoleInfo, DeploymentGraph, GraphNode, NodeClass, Slot, Barrier, TaskPair, GraphCounts } from './model.js';
export { MASTER_NODE, SYNC_NODE } from './model.js';
export { allConditionsHold, type ConditionEvaluator, type ConditionScope, type Condition } from './conditions.js';
export { describeVertex, dependenciesOf, predecessors, isTaskVertex, barrierLabel } from './vertices.js';
export { compileName, isPattern, unsafePatternReason } from './selectors.js';
export { fuelConditions, type FuelConditionOptions } from './fuel-conditions.js';
