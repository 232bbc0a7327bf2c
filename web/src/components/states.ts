/**
 * The lifecycle's words as the UI shows them: the labels of core's one table
 * (src/core/lifecycle/states.ts), so an environment is "Operational" here as it is `operational`
 * in the API and the CLI. A word the table does not know (an older server) is shown as it is.
 */
import { ENVIRONMENT_MEANING, NODE_MEANING, type EnvironmentState, type NodeState } from '../../../src/core/lifecycle/states.js';

export const environmentLabel = (status: string | undefined) => (status ? (ENVIRONMENT_MEANING[status as EnvironmentState]?.label ?? status) : '');
export const environmentMeaning = (status: string | undefined) => (status ? ENVIRONMENT_MEANING[status as EnvironmentState]?.meaning : undefined);
export const nodeLabel = (status: string | undefined | null) => (status ? (NODE_MEANING[status as NodeState]?.label ?? status) : '');
export const nodeMeaning = (status: string | undefined | null) => (status ? NODE_MEANING[status as NodeState]?.meaning : undefined);
