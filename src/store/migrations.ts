/**
 * The schema, as an append-only list of migrations (never edit one that has shipped: add another).
 * Plain PostgreSQL that PGlite and PostgreSQL both run. Whole documents (a release, a loaded plugin,
 * settings) are jsonb: Hearth reads them whole and the domain code works on them as plain data;
 * the columns beside them are what queries filter, join and constrain on.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE hearth_meta (
  key text PRIMARY KEY,
  value jsonb NOT NULL
);

CREATE TABLE plugins (
  id text PRIMARY KEY,
  name text NOT NULL,
  version text NOT NULL,
  package_version text NOT NULL,
  title text,
  description text,
  is_release boolean NOT NULL DEFAULT false,
  source_kind text NOT NULL CHECK (source_kind IN ('package', 'folder', 'bundled')),
  source_path text,
  loaded jsonb NOT NULL,
  installed_at timestamptz NOT NULL DEFAULT now(),
  synced_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (name, version)
);

CREATE TABLE releases (
  id text PRIMARY KEY,
  name text NOT NULL,
  version text NOT NULL,
  operating_system text NOT NULL,
  plugin_id text REFERENCES plugins(id) ON DELETE CASCADE,
  body jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE clusters (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL UNIQUE,
  release_id text NOT NULL REFERENCES releases(id) ON DELETE RESTRICT,
  components jsonb NOT NULL,
  attributes jsonb NOT NULL,
  status text NOT NULL DEFAULT 'new',
  deployed jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One enabled version per plugin name per environment.
CREATE TABLE cluster_plugins (
  cluster_id integer NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  plugin_name text NOT NULL,
  plugin_id text NOT NULL REFERENCES plugins(id) ON DELETE RESTRICT,
  PRIMARY KEY (cluster_id, plugin_name)
);

CREATE TABLE nodes (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  hardware jsonb NOT NULL,
  cluster_id integer REFERENCES clusters(id) ON DELETE SET NULL,
  roles jsonb NOT NULL DEFAULT '[]',
  pending_roles jsonb NOT NULL DEFAULT '[]',
  status text NOT NULL DEFAULT 'discover',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX nodes_cluster ON nodes(cluster_id);

CREATE TABLE deployments (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  cluster_id integer NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  graph_type text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'succeeded', 'failed')),
  total integer NOT NULL,
  done integer NOT NULL DEFAULT 0,
  message text,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX deployments_cluster ON deployments(cluster_id);

CREATE TABLE deployment_tasks (
  deployment_id integer NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
  node text NOT NULL,
  task_id text NOT NULL,
  position integer NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'running', 'ready', 'error', 'skipped')),
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (deployment_id, node, task_id)
);
`,
  },
  {
    version: 2,
    name: 'deployment owners',
    sql: `
-- The server running a deployment, so another server can tell a deployment whose server died
-- (its presence lock is free) from one that is still running.
ALTER TABLE deployments ADD COLUMN owner integer NOT NULL DEFAULT 0;
`,
  },
  {
    version: 3,
    name: 'real nodes and task results',
    sql: `
-- A real node is reached over SSH at address:ssh_port as ssh_user; a node without an address is
-- simulated (planning only). host_key is the key recorded at registration ("<type> <base64>");
-- facts are what the node said about itself; reach_error the last SSH failure, in words.
ALTER TABLE nodes ADD COLUMN address text;
ALTER TABLE nodes ADD COLUMN ssh_user text;
ALTER TABLE nodes ADD COLUMN ssh_port integer;
ALTER TABLE nodes ADD COLUMN host_key text;
ALTER TABLE nodes ADD COLUMN facts jsonb;
ALTER TABLE nodes ADD COLUMN facts_at timestamptz;
ALTER TABLE nodes ADD COLUMN reach_error jsonb;
CREATE UNIQUE INDEX nodes_address ON nodes(address, ssh_port) WHERE address IS NOT NULL;

-- A run is a dry run (the simulation) or real; stopped by the operator is its own outcome.
ALTER TABLE deployments ADD COLUMN mode text NOT NULL DEFAULT 'dry-run' CHECK (mode IN ('dry-run', 'real'));
ALTER TABLE deployments DROP CONSTRAINT deployments_status_check;
ALTER TABLE deployments ADD CONSTRAINT deployments_status_check CHECK (status IN ('running', 'succeeded', 'failed', 'stopped'));

-- What a task did on its node: exit status, attempts, the last 1 MiB of its output, why it ended.
ALTER TABLE deployment_tasks ADD COLUMN type text;
ALTER TABLE deployment_tasks ADD COLUMN exit_status integer;
ALTER TABLE deployment_tasks ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE deployment_tasks ADD COLUMN output text;
ALTER TABLE deployment_tasks ADD COLUMN message text;
`,
  },
  {
    version: 4,
    name: 'stop requests',
    sql: `
-- A stop asked of any server sharing the database; the server running the deployment sees it.
ALTER TABLE deployments ADD COLUMN stop_requested boolean NOT NULL DEFAULT false;
`,
  },
  {
    version: 5,
    name: 'task rows at scale and run leases',
    sql: `
-- A run's task rows are written only by the transaction that creates the run and then by its own
-- server, so the per-row foreign-key check guarded nothing, yet it cost more than the rows
-- themselves (a 200,000-task run: about 4 of 7 s on the embedded database). Removing a run still
-- removes its tasks, by a trigger, once per statement.
ALTER TABLE deployment_tasks DROP CONSTRAINT deployment_tasks_deployment_id_fkey;
CREATE FUNCTION hearth_remove_deployment_tasks() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM deployment_tasks WHERE deployment_id IN (SELECT id FROM removed);
  RETURN NULL;
END
$fn$;
CREATE TRIGGER deployments_remove_tasks AFTER DELETE ON deployments REFERENCING OLD TABLE AS removed
  FOR EACH STATEMENT EXECUTE FUNCTION hearth_remove_deployment_tasks();
-- Each task row is updated once or twice as its task starts and ends: room left in each page lets
-- PostgreSQL update in place (a HOT update) instead of adding an index entry per update.
ALTER TABLE deployment_tasks SET (fillfactor = 50);
-- Rows are found by their place in the run (an integer, growing as rows are added, so new rows go
-- to the end of the index) rather than by two texts: cheaper to add and to look up.
ALTER TABLE deployment_tasks DROP CONSTRAINT deployment_tasks_pkey;
ALTER TABLE deployment_tasks ADD PRIMARY KEY (deployment_id, position);

-- A real run is leased to the server running it, which renews the lease while it runs; a run
-- whose lease has expired (its server died or lost the database) is interrupted by whichever
-- server sees it first, and can be resumed on any server.
ALTER TABLE deployments ADD COLUMN lease_expires_at timestamptz;
`,
  },
  {
    version: 6,
    name: 'plugin package files',
    sql: `
-- The package file of a plugin installed from one, kept so that every server sharing the database
-- can deliver its scripts and serve its repositories. Stored in chunks, so that no single value
-- holds a whole package in memory.
CREATE TABLE plugin_packages (
  plugin_id text PRIMARY KEY REFERENCES plugins(id) ON DELETE CASCADE,
  sha256 text NOT NULL,
  size bigint NOT NULL
);
CREATE TABLE plugin_package_chunks (
  plugin_id text NOT NULL REFERENCES plugin_packages(plugin_id) ON DELETE CASCADE,
  seq integer NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (plugin_id, seq)
);
`,
  },
  {
    version: 7,
    name: 'interrupted runs',
    sql: `
-- A run whose server died is \`interrupted\`, an outcome of its own (issue 17's word), not a failure
-- of the deployment: nothing it ran failed, and \`--resume\` continues it. Runs failed as interrupted
-- by an older Hearth (their message said so) take the new status.
ALTER TABLE deployments DROP CONSTRAINT deployments_status_check;
ALTER TABLE deployments ADD CONSTRAINT deployments_status_check CHECK (status IN ('running', 'succeeded', 'failed', 'stopped', 'interrupted'));
UPDATE deployments SET status = 'interrupted' WHERE status = 'failed' AND message LIKE 'interrupted: %';
`,
  },
  {
    version: 8,
    name: 'lifecycle outcomes',
    sql: `
-- Why each task record ended (issue 25's model, src/core/lifecycle): \`outcome\` beside the
-- Nailgun-style \`status\` older clients read. NULL on rows written before: read from status and
-- message (outcomeOfStored). A stop keeps who asked and when; a run that left offline nodes out
-- lists them. A node keeps the state it had before going offline or into a run, to go back to.
ALTER TABLE deployment_tasks ADD COLUMN outcome text CHECK (outcome IN ('pending', 'running', 'succeeded', 'failed', 'timed_out', 'skipped', 'not_run', 'stopped', 'killed'));
ALTER TABLE deployments ADD COLUMN stopped_by text;
ALTER TABLE deployments ADD COLUMN stopped_at timestamptz;
ALTER TABLE deployments ADD COLUMN skipped_nodes jsonb;
-- A finished run's counts by outcome, kept once read (its task rows no longer change), so lists
-- and streams do not count a large run's rows again.
ALTER TABLE deployments ADD COLUMN counts jsonb;
ALTER TABLE nodes ADD COLUMN status_before text;
-- Fuel's node words: \`ready\` is deployed and healthy (Hearth said \`deployed\`); a real node
-- Hearth called \`ready\` with no roles deployed had only been reached: \`discovered\`.
UPDATE nodes SET status = CASE WHEN status = 'deployed' THEN 'ready' WHEN status = 'ready' AND address IS NOT NULL AND jsonb_array_length(roles) = 0 THEN 'discovered' ELSE status END;
`,
  },
  {
    version: 9,
    name: 'disk layouts',
    sql: `
-- The disk layout an operator saved for a node (issue 26): per disk, the size of each volume and
-- whether the disk is left out. A node without a row has its default layout, computed from its
-- disks (facts), its roles and the volumes of the release and plugins whenever it is read, so a
-- role change moves it; a saved layout stays until the operator changes or resets it. It goes with
-- its node.
CREATE TABLE node_disk_layouts (
  node_id integer PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
  disks jsonb NOT NULL,
  saved_at timestamptz NOT NULL DEFAULT now()
);
`,
  },
  {
    version: 10,
    name: 'networks',
    sql: `
-- An environment's networks as the operator set them (Nailgun's network_configuration resource,
-- src/core/networks/model.ts); an environment without a row has the release's defaults.
CREATE TABLE network_configurations (
  cluster_id integer PRIMARY KEY REFERENCES clusters(id) ON DELETE CASCADE,
  body jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Every address an environment hands out on its networks: a node's (one per node and network) or
-- a VIP's (by name), as Nailgun's ip_addrs rows. The UNIQUE constraint is what keeps two nodes, or
-- a node and a VIP, from one address, whichever server planned them: several servers sharing one
-- PostgreSQL each plan from what they read, and the database is the one place that sees both.
CREATE TABLE network_addresses (
  cluster_id integer NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  network text NOT NULL,
  ip text NOT NULL,
  node_id integer REFERENCES nodes(id) ON DELETE CASCADE,
  vip text,
  network_role text,
  namespace text,
  node_roles jsonb,
  is_user_defined boolean NOT NULL DEFAULT false,
  CHECK ((node_id IS NULL) <> (vip IS NULL)),
  CONSTRAINT network_addresses_ip_key UNIQUE (cluster_id, network, ip)
);
CREATE UNIQUE INDEX network_addresses_node ON network_addresses(node_id, network) WHERE node_id IS NOT NULL;
CREATE UNIQUE INDEX network_addresses_vip ON network_addresses(cluster_id, vip) WHERE vip IS NOT NULL;

-- A node's networks on its interfaces as the operator mapped them (Nailgun's interfaces with
-- assigned_networks); a node without a row is mapped by map_priority. Dropped when the node leaves.
CREATE TABLE node_interfaces (
  node_id integer PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
  cluster_id integer NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  interfaces jsonb NOT NULL
);
`,
  },
  {
    version: 11,
    name: 'stop grace through the database',
    sql: `
-- The grace period a stop asked for (grace_s), for the server running the deployment when the
-- stop came through another server sharing the database; NULL: that server's default.
ALTER TABLE deployments ADD COLUMN stop_grace_s integer;
`,
  },
  {
    version: 12,
    name: 'removal intent with its run',
    sql: `
-- What a deletion run was started to remove ({nodes, environment}), kept with the run so that a
-- resume on any server, after a stop or a crash, ends the removal as the first run would have.
ALTER TABLE deployments ADD COLUMN removal jsonb;
`,
  },
  {
    version: 13,
    name: 'users, personal tokens, sessions, sign-in failures',
    sql: `
-- People who sign in (issue 29). The password is an scrypt hash with its parameters
-- (src/server/passwords.ts); a disabled user keeps their rows but can do nothing.
CREATE TABLE users (
  name text PRIMARY KEY,
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
  disabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Personal API tokens: only the SHA-256 of a token is kept (a token is 256 random bits, so a
-- plain digest is enough; nothing to stretch). A token acts with its own role, never more than its
-- owner's at the moment of use. A revoked token keeps its row (the audit log names it), and its
-- name can be used again.
CREATE TABLE api_tokens (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner text NOT NULL REFERENCES users(name) ON DELETE CASCADE,
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  role text NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_tokens_owner_name ON api_tokens(owner, name) WHERE revoked_at IS NULL;

-- Web UI sessions, by the SHA-256 of the cookie's value. Idle expiry reads last_seen_at (written
-- at most once a minute), absolute expiry expires_at.
CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  user_name text NOT NULL REFERENCES users(name) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_name);

-- Failed sign-ins per name ('name:<name>') and per address ('address:<ip>'), kept here so every
-- server sharing the database slows the same guesser down; names that do not exist count too.
CREATE TABLE sign_in_failures (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  last_failure_at timestamptz NOT NULL,
  locked_until timestamptz
);
`,
  },
  {
    version: 14,
    name: 'audit log and who asked',
    sql: `
-- Every change asked of the API, and every refusal of one (issue 29): who (a user, or
-- 'admin-token'), how they proved it (via, the personal token's name), from which address, the
-- route as declared (its pattern, never the URL as sent: no ids spelled twice, no query with
-- secrets), what it acted on, and how it ended. Never a body, a token or a password. It outlives
-- what it names: no foreign keys, so deleting an environment keeps the record of who deleted it.
CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor text,
  via text NOT NULL,
  token_name text,
  address text,
  method text NOT NULL,
  route text NOT NULL,
  object_kind text,
  object_id text,
  status integer NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('done', 'refused', 'failed')),
  code text,
  deployment_id integer
);
-- Pages are read newest first by id, filtered by actor, by what was acted on, or from a moment.
CREATE INDEX audit_log_actor ON audit_log(actor, id);
CREATE INDEX audit_log_object ON audit_log(object_kind, object_id, id);
CREATE INDEX audit_log_at ON audit_log(at);

-- Who asked for a run (a deployment, a resume, a node removal's deletion run): the actor's name,
-- with the personal token's name when one was used.
ALTER TABLE deployments ADD COLUMN requested_by text;
-- Who last accepted a changed host key of a node, and when.
ALTER TABLE nodes ADD COLUMN host_key_accepted_by text;
ALTER TABLE nodes ADD COLUMN host_key_accepted_at timestamptz;
`,
  },
  {
    version: 15,
    name: 'custom roles',
    sql: `
-- Roles added through the API (issue 28 item 12, Nailgun's role API) to a release or to one
-- environment: kept apart from the release's body, so syncing or reinstalling its plugin keeps
-- them, and gone with their release or environment. meta is Nailgun's role meta; volumes the
-- role's disk layout (volumes_roles_mapping).
CREATE TABLE custom_roles (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  release_id text REFERENCES releases(id) ON DELETE CASCADE,
  cluster_id integer REFERENCES clusters(id) ON DELETE CASCADE,
  name text NOT NULL,
  meta jsonb NOT NULL,
  volumes jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((release_id IS NULL) <> (cluster_id IS NULL))
);
CREATE UNIQUE INDEX custom_roles_release_name ON custom_roles(release_id, name) WHERE release_id IS NOT NULL;
CREATE UNIQUE INDEX custom_roles_cluster_name ON custom_roles(cluster_id, name) WHERE cluster_id IS NOT NULL;
`,
  },
  {
    version: 16,
    name: 'environments created by a function whose plan each session keeps',
    sql: `
-- Creations asked meanwhile go in one statement (store/clusters.ts createClusters): environments,
-- their enabled plugins and audit entries. Sent as a statement of its own, PostgreSQL parsed and
-- planned it each time, and on the embedded database that was about 3 ms of a statement of 4 to
-- 10 (issue 30). A PL/pgSQL function keeps the plan of its query for the session. Tables are
-- named without a schema, as everywhere: search_path finds them (tests work in a schema each).
-- batch: one object per environment (ord, name, release_id, components, tree, plugins, audit),
-- trees: the settings trees they index. Only what the database decides comes back.
CREATE FUNCTION hearth_create_clusters(batch jsonb, trees jsonb)
  RETURNS TABLE (made_id integer, made_name text, made_status text, made_at timestamptz)
  LANGUAGE plpgsql AS $fn$
BEGIN
  -- Two servers on one PostgreSQL whose batches share names would take those names' index entries
  -- each in its own order, and could deadlock (found after deadlock_timeout, a second) or the later
  -- be refused by the unique index; either way its creations were written again one by one. Each
  -- batch first takes a lock per name (74604: the environment names' space of two-key advisory
  -- locks, beside the presence locks' 74603), all in one order, held to its commit: the insert
  -- below then sees the names the other committed, and leaves them out as taken. Ids still follow
  -- the order asked. A lone session (the embedded database) always gets them at once.
  PERFORM pg_advisory_xact_lock(74604, k) FROM (SELECT DISTINCT hashtext(n.name) AS k FROM jsonb_to_recordset(batch) AS n(name text)) names ORDER BY k;
  RETURN QUERY
  WITH x AS (SELECT * FROM jsonb_to_recordset(batch) AS x(ord integer, name text, release_id text, components jsonb, tree integer, plugins jsonb, audit jsonb)),
  -- The name's check probes the unique index for each row (OFFSET 0 keeps it a per-row subquery):
  -- as an anti join it was planned as a scan of every environment.
  c AS (
    INSERT INTO clusters (name, release_id, components, attributes)
    SELECT x.name, x.release_id, x.components, trees -> x.tree FROM x WHERE NOT EXISTS (SELECT 1 FROM clusters WHERE clusters.name = x.name OFFSET 0) ORDER BY x.ord
    RETURNING clusters.id, clusters.name, clusters.status, clusters.created_at),
  p AS (
    INSERT INTO cluster_plugins (cluster_id, plugin_name, plugin_id)
    SELECT c.id, e.key, e.value FROM c JOIN x ON x.name = c.name, jsonb_each_text(x.plugins) e),
  -- An entry is store/audit.ts's auditRow, with AUDIT_COLUMNS as they were when this was written.
  a AS (
    INSERT INTO audit_log (at, actor, via, token_name, address, method, route, object_kind, object_id, status, outcome, code, deployment_id)
    SELECT e.at, e.actor, e.via, e.token_name, e.address, e.method, e.route, e.object_kind, CASE WHEN e.object_kind IS NOT NULL THEN coalesce(e.object_id, c.id::text) END, e.status, e.outcome, e.code, e.deployment_id
    FROM c JOIN x ON x.name = c.name,
      jsonb_to_record(x.audit) AS e(at timestamptz, actor text, via text, token_name text, address text, method text, route text, object_kind text, object_id text, status integer, outcome text, code text, deployment_id integer)
    WHERE x.audit IS NOT NULL ORDER BY x.ord)
  SELECT c.id, c.name, c.status, c.created_at FROM c;
END
$fn$;
`,
  },
  {
    version: 17,
    name: "a running run's counts, kept by its writer",
    sql: `
-- A running real run's tasks by outcome, written by its writer in the same statement as each batch
-- of reports (store/live-counts.ts), so a look at the run (the live stream's, every 500 ms) reads
-- them instead of counting its rows (0.15-0.3 s of the embedded database's CPU at 200,000 tasks;
-- issue 30). NULL when a writer changed rows without counting them: then they are counted. Read
-- only while the run is running; a finished run's counts are counted once and kept in counts.
ALTER TABLE deployments ADD COLUMN live_counts jsonb;
`,
  },
  {
    version: 18,
    name: "a batch of a run's reports written in one call",
    sql: `
-- A batch of a running run's reports (store/task-runs.ts applyTaskUpdates): its tasks' new states,
-- one array per column, applied to the run's rows with the run's done count and counts by outcome.
-- A batch is a few thousand keys into a run of any size: each row is found by the primary key. From
-- its own estimates the planner chose, for runs of some tens of thousands of tasks, to read and hash
-- every row of the run once per batch, a cost that grows with the run (issue 30); so hash and merge
-- joins are off, for this function's statement only. Before, the statement set them off in its own
-- transaction, which cost the embedded database's thread four round trips to the server's thread
-- per batch: while a run's walk held that thread, each waited its turn, and a batch of 2,000
-- reports took 65 ms instead of 20 (issue 30). PL/pgSQL keeps the statement's plan for the session.
-- run_id: the deployment; positions and statuses one per report; the other arrays empty when no
-- report sets them (unnest pads them with NULLs); started and finished are milliseconds from base.
-- Only a running run takes reports. Returns how many rows changed.
CREATE FUNCTION hearth_apply_task_updates(run_id integer, positions integer[], statuses text[], exits integer[],
    tries integer[], outputs text[], messages text[], started bigint[], finished bigint[], finished_count integer,
    base bigint, new_counts jsonb)
  RETURNS integer LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $fn$
DECLARE
  changed integer;
BEGIN
  WITH live AS (SELECT id FROM deployments WHERE id = run_id AND status = 'running'),
  rows_changed AS (
    UPDATE deployment_tasks d SET status = u.s, exit_status = coalesce(u.x, d.exit_status), attempts = coalesce(u.a, d.attempts),
      output = coalesce(u.o, d.output), message = coalesce(u.m, d.message),
      started_at = coalesce(d.started_at, to_timestamp((base + u.b)::float8 / 1000)),
      finished_at = coalesce(to_timestamp((base + u.e)::float8 / 1000), d.finished_at)
    FROM unnest(positions, statuses, exits, tries, outputs, messages, started, finished) AS u(p, s, x, a, o, m, b, e)
    WHERE d.deployment_id = (SELECT id FROM live) AND d.position = u.p
    RETURNING 1),
  -- Run whether or not it is read: PostgreSQL runs every data-modifying WITH once, to completion.
  counted AS (UPDATE deployments SET done = done + finished_count, live_counts = new_counts WHERE id = (SELECT id FROM live))
  SELECT count(*)::integer INTO changed FROM rows_changed;
  RETURN changed;
END
$fn$;
`,
  },
];
