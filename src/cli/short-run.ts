/**
 * One-shot work without V8's optimising compiler. A `hearth plugin validate` run is over before
 * TurboFan's optimised code pays for its compiling: on the largest corpus plugin (200 KB of YAML)
 * it compiled 89 functions of the YAML parser, as much CPU on background threads as the whole run
 * takes without it (run alone: 0.94 s -> 0.55 s wall, CPU 0.94 -> 0.54 s; over all 34 corpus
 * plugins, one `hearth plugin validate` each: 12% less wall, 14% less CPU). Work that lasts, such
 * as a server or a solver over thousands of components, keeps it: only a command that knows its
 * work is short asks for this.
 */
import { setFlagsFromString } from 'node:v8';

/** Flags a user gave Node that decide about optimisation: then hearth leaves it to them. */
const USER_CHOICE = /--(?:no-)?(?:opt|turbofan)\b|--jitless|--always-(?:opt|turbofan)\b/;

/**
 * Node 22 and later: V8's flags are left alone. Issue 19 asks for Node's standard ways there
 * instead of run-time flag changes, and on Node 24 switching TurboFan off at run time did not
 * always hold (a function was still optimised during the work, once in three runs).
 */
const LEAVE_FLAGS_ALONE = Number(process.versions.node.split('.')[0]) >= 22;

export function withoutOptimisingCompiler<T>(work: () => T): T {
  if (LEAVE_FLAGS_ALONE) return work();
  if (USER_CHOICE.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`)) return work();
  // Set back afterwards: only this work is known to be short.
  setFlagsFromString('--no-turbofan');
  try {
    return work();
  } finally {
    setFlagsFromString('--turbofan');
  }
}
