/**
 * How failed sign-ins slow a guesser down (issue 29), as plain numbers: a few failures are free
 * (typos), then each further failure locks the name (and, separately, the address) for twice as
 * long as the one before, up to a ceiling. Counts are forgotten a while after the last failure.
 */

export interface SignInPolicy {
  /** Failures in a row allowed before any lock. */
  freeFailures: number;
  /** The first lock (ms); each further failure doubles it. */
  firstLockMs: number;
  /** The longest lock (ms). */
  maxLockMs: number;
  /** A count is forgotten this long after its last failure (ms). */
  forgetAfterMs: number;
}

export const DEFAULT_SIGN_IN_POLICY: SignInPolicy = { freeFailures: 5, firstLockMs: 1_000, maxLockMs: 15 * 60_000, forgetAfterMs: 24 * 60 * 60_000 };

/** How long (ms) to lock after the `failures`-th failure in a row; 0 while they are free. */
export function lockAfter(failures: number, policy: SignInPolicy): number {
  const over = failures - policy.freeFailures;
  if (over <= 0) return 0;
  return Math.min(policy.maxLockMs, policy.firstLockMs * 2 ** Math.min(over - 1, 40));
}

/** The address's own count allows more failures: many people may share one (a NAT, a proxy). */
export const addressPolicy = (policy: SignInPolicy): SignInPolicy => ({ ...policy, freeFailures: policy.freeFailures * 4 });
