/** Running what core planned on nodes: transports (SSH, dry run, fake), the graph walk, task types, facts, keys. */
export { SshTransport, fingerprint, sshFailure, type SshOptions } from './ssh.js';
export { DryRunTransport, type RecordedCall } from './fake.js';
export { OUTPUT_LIMIT, OutputTail, type DeployTarget, type ExecOptions, type ExecResult, type Transport } from './transport.js';
export { runGraph, attemptsOf, failOnError, graceOf, type StopReason, type RunEvents, type RunInput, type RunSummary, type VertexRef, type VertexState } from './run.js';
export { runDeployment, type DeploymentPlan, type DeployOptions, type PluginScripts } from './deployment.js';
export { confinedPath, unsendableFolder, type DataFolder } from './confine.js';
export { runTask, redact, timeoutOf, MARKER_TYPES, RUNNABLE_TYPES, PLUGINS_ROOT, type TaskOutcome } from './tasks.js';
export { gatherFacts, parseFacts, FACTS_SCRIPT, type NodeFacts, type DiskFact, type InterfaceFact } from './facts.js';
export { generateKeyPair, readKeyFiles, writeKeyFiles, keyFiles, type SshKeyPair } from './keys.js';
export { quote, commandLine } from './quote.js';
