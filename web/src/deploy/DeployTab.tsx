import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { call } from '../api.js';
import { useApi } from '../useApi.js';
import type { Cluster } from '../types.js';
import { Problems } from '../components/Problems.js';
import { finished, liveKey, mergeTasks, normalizeTask, type Deployment, type TaskRun } from './model.js';
import { DeploymentView } from './DeploymentView.js';
import { History } from './History.js';
import { followDeployment } from './stream.js';
import { appendChunk, joinSnapshot, type LiveText } from './liveText.js';
import { StopButton } from './StopButton.js';
import { GraphRun } from './GraphRun.js';
import { Plan, planSummary, usePlan } from './Plan.js';

/**
 * Start a deployment (for real, as a dry run, or resuming the last one), watch it node by node and
 * task by task with each task's output as it is printed, stop it, and read past ones.
 */
export function DeployTab({ cluster, onDeployed, liveDeployments }: { cluster: Cluster; onDeployed: () => void; liveDeployments?: Map<number, Deployment> }) {
  const nodes = useApi('/clusters/{id}/nodes', { params: { id: cluster.id } });
  // null until the environment's runs have been read: an empty list would say "No deployment yet." while loading.
  const [history, setHistory] = useState<Deployment[] | null>(null);
  const [deployment, setDeployment] = useState<Deployment | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // The running tasks' output on the page, of one deployment (`of`): chunks or a snapshot of another
  // run start it afresh, so a run noticed twice (its page load and its live stream) never wipes it.
  const [live, setLive] = useState<{ of: number | null; texts: Record<string, LiveText> }>({ of: null, texts: {} });
  const liveOf = useCallback((id: number, key?: string, next?: (current: LiveText | undefined) => LiveText | undefined) => setLive((l) => {
    const texts = l.of === id ? l.texts : {};
    if (!key || !next) return l.of === id ? l : { of: id, texts };
    const text = next(texts[key]);
    return text ? { of: id, texts: { ...texts, [key]: text } } : { of: id, texts };
  }), []);
  // When this page asked the running deployment to stop (its id and the time), until the run says.
  const [stopAsked, setStopAsked] = useState<{ id: number; at: number } | null>(null);

  // The run, and its tasks as the deployments API lists them (failures first, with times, exit status and reasons).
  const fetchOne = useCallback(
    async (id: number) => {
      const [d, tasks] = await Promise.all([call('get', '/clusters/{id}/deployments/{deployment}', { params: { id: cluster.id, deployment: id } }), call('get', '/deployments/{id}/tasks', { params: { id } })]);
      return { ...d, tasks: tasks.map(normalizeTask) };
    },
    [cluster.id],
  );
  const fetchHistory = useCallback(() => call('get', '/clusters/{id}/deployments', { params: { id: cluster.id } }).then(setHistory), [cluster.id]);

  useEffect(() => {
    let live = true;
    call('get', '/clusters/{id}/deployments', { params: { id: cluster.id } }).then(
      async (list) => {
        if (!live) return;
        setHistory(list);
        if (list.length > 0) setDeployment(await fetchOne(list[0].id));
      },
      (e) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [cluster.id, fetchOne]);

  // A running deployment is followed on the live stream, task by task (and chunk by chunk of
  // output, for a real one), falling back to asking every 300 ms when the stream breaks. A dry run
  // too: it was asked for its whole task list every 300 ms, 40 MB a look at 200,000 tasks, for the
  // minute a dry run of a few hundred nodes takes; its tasks have times, so the stream has them.
  const running = deployment !== null && !finished(deployment);
  useEffect(() => {
    if (!deployment || !running) return;
    const id = deployment.id;
    const ended = async () => {
      const d = await fetchOne(id);
      setDeployment(d);
      if (finished(d)) {
        // Nodes' roles and statuses changed with the run (pending roles deployed: "Redeploy" next).
        nodes.reload();
        onDeployed();
        void fetchHistory();
      }
      return d;
    };
    let timer: ReturnType<typeof setInterval> | undefined;
    const poll = () => {
      timer = setInterval(() => void ended().catch(setError), 300);
    };
    const abort = new AbortController();
    // A look of the stream brings many task events at once (thousands in a large run): they are
    // gathered and merged in one update once the events read together have been handed on.
    let changes: TaskRun[] = [];
    const merge = (t: TaskRun) => {
      changes.push(normalizeTask(t));
      if (changes.length > 1) return;
      queueMicrotask(() => {
        const these = changes;
        changes = [];
        setDeployment((d) => (!d || d.id !== id ? d : { ...d, tasks: mergeTasks(d.tasks ?? [], these) }));
      });
    };
    followDeployment(
      id,
      {
        task: merge,
        output: (c) => liveOf(id, liveKey(c.node, c.task_id), (t) => appendChunk(t, c.chunk, c.offset)),
        deployment: (d) => setDeployment((cur) => (cur && cur.id === d.id ? { ...cur, ...d, tasks: cur.tasks, status: 'running' } : cur)),
        end: () => undefined,
      },
      abort.signal,
    ).then(
      () => !abort.signal.aborted && void ended().then((d) => !finished(d) && !abort.signal.aborted && poll(), setError),
      () => !abort.signal.aborted && poll(),
    );
    return () => {
      abort.abort();
      clearInterval(timer);
    };
  }, [deployment?.id, running, fetchOne, fetchHistory, onDeployed, nodes.reload, liveOf]);

  // The environment's state changed (its live stream says so: a run ended, here or anywhere):
  // its nodes' roles and statuses changed with it, whichever way this page learnt of the run.
  const statusSeen = useRef(cluster.status);
  useEffect(() => {
    if (statusSeen.current === cluster.status) return;
    statusSeen.current = cluster.status;
    nodes.reload();
  }, [cluster.status, nodes.reload]);

  // A run started anywhere else (the CLI, another browser or server), as the environment's live
  // stream tells it: shown and followed at once, like one started here.
  const noticed = useRef(0);
  useEffect(() => {
    if (!liveDeployments?.size) return;
    const newest = Math.max(...liveDeployments.keys());
    if (newest <= noticed.current) return;
    noticed.current = newest;
    if (deployment && deployment.id >= newest) return;
    void fetchOne(newest).then((d) => {
      // The page's own first load may have shown this run meanwhile, its output already read.
      liveOf(d.id);
      setStopAsked(null);
      setDeployment((cur) => (cur && cur.id >= d.id ? cur : d));
      void fetchHistory();
    }, setError);
  }, [liveDeployments, fetchOne, fetchHistory, liveOf]);
  // Any run of the environment still running holds Deploy back, the one shown or not.
  const runningElsewhere = [...(liveDeployments?.values() ?? [])].some((d) => d.status === 'running' && d.id !== deployment?.id);

  const names = useMemo(() => new Map((nodes.data ?? []).map((n) => [String(n.id), n.name])), [nodes.data]);
  // Tasks are recorded by node id; people read names (`master` and `sync` are Hearth's own steps).
  const nodeName = useCallback((id: string) => names.get(id) ?? (id === 'master' || id === 'sync' ? `${id} (Hearth)` : `node ${id}`), [names]);

  const withRoles = (nodes.data ?? []).filter((n) => n.roles.length + n.pending_roles.length > 0);
  const pending = withRoles.filter((n) => n.pending_roles.length > 0);
  const simulated = withRoles.filter((n) => n.simulated !== false);
  const again = cluster.status === 'operational' && pending.length === 0;
  // The server's own rule when no mode is asked for: real when every node is real, a dry run when
  // every node is simulated, refused (with the names) when they are mixed.
  const allSimulated = withRoles.length > 0 && simulated.length === withRoles.length;
  const last = history?.[0];
  const resumable = last !== undefined && last.mode === 'real' && last.status !== 'succeeded' && last.status !== 'running';
  // What Deploy would run and why, shown before it is asked (issue 25); again after each run.
  const plan = usePlan(cluster.id, `${last?.id}:${last?.status}`);

  const start = async (question: string, body: { dry_run?: boolean; resume?: boolean }) => {
    if (!window.confirm(question)) return;
    setBusy(true);
    setError(null);
    setStopAsked(null);
    try {
      const started = await call('post', '/clusters/{id}/deploy', { params: { id: cluster.id }, body });
      liveOf(started.id);
      setDeployment(await fetchOne(started.id));
      void fetchHistory();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const nodesWord = `${withRoles.length} node${withRoles.length === 1 ? '' : 's'}`;
  const deploy = () => {
    const question = again
      ? `Deploy ${cluster.name} again? The default graph runs once more on its ${withRoles.length} nodes, with the settings as they are now.`
      : `Deploy ${cluster.name}? The default graph runs on ${nodesWord}; ${pending.length} of them get new roles.`;
    const how = allSimulated ? ' The nodes are simulated, so this is a dry run: nothing runs on machines.' : simulated.length === 0 && withRoles.length > 0 ? ' It runs for real, over SSH, on the hosts.' : '';
    return start(question + how + (plan.data ? ` The plan: ${planSummary(plan.data)}.` : ''), {});
  };
  const dryRun = () => start(`Dry run of ${cluster.name}? The default graph is simulated on ${nodesWord}: nothing runs on the machines, and no output is recorded.`, { dry_run: true });
  const resume = () => start(`Resume deploying ${cluster.name}? Only what deployment ${last!.id} did not finish runs; the tasks it finished are not run again.`, { resume: true });

  const stop = async () => {
    if (!deployment || !window.confirm(`Stop deploying ${cluster.name}? No new task starts; tasks running now are let finish (or killed after a grace period), and the environment is left as far as it got.`)) return;
    setError(null);
    const asked = { id: deployment.id, at: Date.now() };
    setStopAsked(asked);
    try {
      await call('post', '/clusters/{id}/stop', { params: { id: cluster.id } });
    } catch (e) {
      setStopAsked(null);
      setError(e);
    }
  };

  const isRunning = deployment?.status === 'running' || runningElsewhere;
  const startedHere = async (started: Deployment) => {
    setStopAsked(null);
    liveOf(started.id);
    setDeployment(await fetchOne(started.id).catch(() => started));
    void fetchHistory();
  };
  return (
    <div className="deploy">
      <div className="actions">
        {deployment?.status === 'running' && deployment.mode === 'real' && <StopButton deployment={deployment} asked={stopAsked?.id === deployment.id ? stopAsked.at : undefined} onStop={() => void stop()} />}
        {resumable && (
          <button type="button" disabled={busy || !nodes.data || isRunning} onClick={() => void resume()} title={`Runs only what deployment ${last.id} did not finish`}>
            Resume deployment {last.id}
          </button>
        )}
        <button type="button" disabled={busy || !nodes.data || isRunning} onClick={() => void dryRun()} title="Simulate the deployment: nothing runs on the machines">
          Dry run
        </button>
        <button type="button" className="primary" disabled={busy || !nodes.data || isRunning} onClick={() => void deploy()}>
          {again ? 'Redeploy' : 'Deploy changes'}
        </button>
      </div>
      {simulated.length > 0 && simulated.length < withRoles.length && (
        <p className="warn-note" data-testid="mixed-nodes">
          {simulated.length} of the {withRoles.length} nodes with roles {simulated.length === 1 ? 'is' : 'are'} simulated ({simulated.slice(0, 5).map((n) => n.name).join(', ')}
          {simulated.length > 5 ? ', …' : ''}): a real deployment needs real hosts only; a dry run takes any node.
        </p>
      )}
      {!isRunning && <Plan plan={plan.data} error={plan.error} />}
      <GraphRun cluster={cluster} nodes={nodes.data ?? []} disabled={!nodes.data || isRunning} onStarted={(d) => void startedHere(d)} />
      <Problems error={error} title="Deployment refused" />
      {deployment && <DeploymentView key={deployment.id} deployment={deployment} nodeName={nodeName} live={live.of === deployment.id ? live.texts : undefined} onSnapshot={(key, snapshot) => liveOf(deployment.id, key, (t) => joinSnapshot(t, snapshot) ?? t)} />}
      <h2 className="section-title">History</h2>
      <History
        list={history?.map((h) => (deployment && h.id === deployment.id ? { ...h, ...deployment } : liveDeployments?.has(h.id) ? { ...h, ...liveDeployments.get(h.id) } : h)) ?? null}
        current={deployment?.id ?? null}
        nodeName={nodeName}
        onOpen={(id) =>
          void fetchOne(id).then((d) => {
            liveOf(d.id);
            setDeployment(d);
          }, setError)
        }
      />
    </div>
  );
}
