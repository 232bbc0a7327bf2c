import { useEffect, useState } from 'react';
import { isoTime, type Deployment } from './model.js';

/** The grace period a stop gives running tasks when the run reports none (the server's default). */
export const DEFAULT_GRACE_S = 30;

/**
 * Stop, once: after it is asked (here, or anywhere: the run's `stopped_at`) the button is disabled
 * and says so, with the time left before tasks still running are killed, counted from the stop's
 * time for the grace period the run reports.
 */
export function StopButton({ deployment, asked, onStop }: { deployment: Deployment; asked: number | undefined; onStop: () => void }) {
  const reported = deployment as { stopped_at?: string | null; stop_grace_s?: number | null; grace_s?: number | null };
  const fromRun = reported.stopped_at ? Date.parse(reported.stopped_at) : NaN;
  const since = Number.isFinite(fromRun) ? fromRun : asked;
  const grace = reported.stop_grace_s ?? reported.grace_s ?? DEFAULT_GRACE_S;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === undefined) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);

  if (since === undefined)
    return (
      <button type="button" className="danger" onClick={onStop}>
        Stop the deployment
      </button>
    );
  // Never more than the grace period: the run's own stop time can be a little later than the
  // page's clock read last (it said 31 s of a 30 s grace in CI), or the server's clock ahead.
  const left = Math.min(grace, Math.max(0, Math.ceil(grace - (now - since) / 1000)));
  return (
    <>
      <button type="button" className="danger" disabled title="A stop was asked: the deployment ends when the tasks running now have finished or been killed">
        Stopping…
      </button>
      <p role="status" className="warn-note stop-countdown" data-grace-left={left}>
        Stop requested at {isoTime(new Date(since).toISOString())}: no new task starts.{' '}
        {left > 0 ? `Tasks running now may finish; any still running in ${left} s (a grace period of ${grace} s) are killed.` : `The grace period of ${grace} s is over: tasks still running are being killed.`}
      </p>
    </>
  );
}
