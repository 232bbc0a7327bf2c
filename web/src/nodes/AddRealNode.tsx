import { useState, type FormEvent } from 'react';
import { ApiError, call } from '../api.js';
import { useApi } from '../useApi.js';
import { Problems } from '../components/Problems.js';
import { sentence } from '../components/words.js';
import { formatBytes, type NodeView } from './realNode.js';

/**
 * Register a real host in this environment: Hearth connects over SSH first and keeps the node only
 * when it answered (its host key recorded, its facts gathered), so an unreachable address is said
 * in the SSH error's words and nothing is added. Hearth's public key is shown beside the form,
 * because authorizing it is what the operator does before adding a node.
 */
export function AddRealNode({ clusterId, onAdded }: { clusterId: string | number; onAdded: (node: NodeView) => void }) {
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const [user, setUser] = useState('');
  const [port, setPort] = useState('');
  const [connecting, setConnecting] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [added, setAdded] = useState<NodeView | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const target = address.trim();
    if (!target) return;
    setError(null);
    setAdded(null);
    setConnecting(target);
    try {
      const body = { address: target, cluster_id: Number(clusterId), ...(name.trim() ? { name: name.trim() } : {}), ...(user.trim() ? { ssh_user: user.trim() } : {}), ...(port.trim() ? { ssh_port: Number(port) } : {}) };
      // A real node's registration answers the node itself.
      const node = (await call('post', '/nodes', { body })).node!;
      setAdded(node);
      setAddress('');
      setName('');
      onAdded(node);
    } catch (err) {
      setError(err);
    } finally {
      setConnecting(null);
    }
  };

  return (
    <fieldset className="group real-node">
      <legend>Add a real node</legend>
      <SshKeyLine />
      <form className="title-row add-real-node" onSubmit={(e) => void submit(e)} aria-describedby="real-node-help">
        <label htmlFor="node-address">Address</label>
        <input id="node-address" required size={30} value={address} placeholder="10.0.0.11 or node1.example.org" onChange={(e) => setAddress(e.target.value)} disabled={connecting !== null} />
        <label htmlFor="node-name">Name</label>
        <input id="node-name" value={name} placeholder="its hostname" onChange={(e) => setName(e.target.value)} disabled={connecting !== null} />
        <label htmlFor="node-ssh-user">SSH user</label>
        <input id="node-ssh-user" className="short" value={user} placeholder="root" onChange={(e) => setUser(e.target.value)} disabled={connecting !== null} />
        <label htmlFor="node-ssh-port">SSH port</label>
        <input id="node-ssh-port" className="short" type="number" min={1} max={65535} value={port} placeholder="22" onChange={(e) => setPort(e.target.value)} disabled={connecting !== null} />
        <button type="submit" className="primary" disabled={connecting !== null || !address.trim()}>
          Connect and add
        </button>
      </form>
      <p id="real-node-help" className="note">
        Hearth connects over SSH, records the host key and gathers the host&apos;s facts; a host it cannot reach is not added.
      </p>
      <div aria-live="polite">
        {connecting !== null && (
          <p role="status" aria-busy="true" data-testid="connecting">
            Connecting to {connecting} over SSH: checking its host key and gathering its facts…
          </p>
        )}
        {added && (
          <p role="status" className="good" data-testid="node-added">
            Added {added.name} ({added.address}){added.facts ? `: ${summary(added)}` : ''}; host key <code>{added.host_key_fingerprint}</code>
          </p>
        )}
      </div>
      <AddRefusal error={error} />
    </fieldset>
  );
}

const summary = (n: NodeView) => {
  const f = n.facts!;
  return [f.os.pretty_name, f.cpus !== null ? `${f.cpus} CPU${f.cpus === 1 ? '' : 's'}` : null, f.memory_bytes !== null ? `${formatBytes(f.memory_bytes)} memory` : null].filter(Boolean).join(', ');
};

/** An unreachable host in the SSH error's words, with what to do; other refusals as usual. */
function AddRefusal({ error }: { error: unknown }) {
  if (error instanceof ApiError && error.code === 'node/address-taken') {
    // The server's hint names the CLI; on this page the node is in a table already.
    return (
      <div role="alert" className="problems" data-code={error.code}>
        <strong>The node was not added: Hearth knows this host already</strong>
        <p>{sentence(error.message)}</p>
        <p>What to do: find it in this environment&apos;s table or under &quot;Nodes in no environment&quot;, or in another environment; open it there to refresh its facts.</p>
      </div>
    );
  }
  if (!(error instanceof ApiError) || error.code !== 'node/unreachable') return <Problems error={error} title="The node was not added" />;
  const hint = (error.details as { hint?: string } | undefined)?.hint;
  return (
    <div role="alert" className="problems" data-code={error.code}>
      <strong>The node was not added: Hearth could not connect to it</strong>
      <p data-testid="ssh-error">{sentence(error.message.replace(/^cannot register /, 'Cannot reach '))}</p>
      {hint && <p>What to do: {hint}.</p>}
    </div>
  );
}

/** Hearth's public key, to copy into the SSH user's authorized_keys on each node. */
function SshKeyLine() {
  const key = useApi('/ssh-key');
  const [copied, setCopied] = useState<string | null>(null);
  if (key.error) return <Problems error={key.error} title="Hearth has no SSH key to show" />;
  if (!key.data) return <p aria-busy="true">Reading Hearth&apos;s SSH key…</p>;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(key.data!.public_key);
      setCopied('Copied.');
    } catch {
      // Clipboard access needs a secure page (https or localhost); selecting lets the operator copy by hand.
      const field = document.getElementById('ssh-public-key') as HTMLInputElement | null;
      field?.select();
      setCopied(document.execCommand('copy') ? 'Copied.' : 'Selected: copy it with Ctrl+C.');
    }
  };
  return (
    <div className="ssh-key">
      <div className="title-row">
        <label htmlFor="ssh-public-key">Hearth&apos;s public key</label>
        <input id="ssh-public-key" className="key" readOnly value={key.data.public_key} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
        <span role="status" className="muted">
          {copied}
        </span>
      </div>
      <p className="note">
        Put it on its own line in <code>~/.ssh/authorized_keys</code> of the SSH user on every node before adding the node (fingerprint {key.data.fingerprint}).
      </p>
    </div>
  );
}
