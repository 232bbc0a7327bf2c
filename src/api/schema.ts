/**
 * The API's requests and answers as TypeScript types: GENERATED from /api/v1/openapi.json by
 * `npm run api:types` (scripts/api-types.ts); do not edit. `npm run build` fails when this file and
 * the document drift apart. Import it through src/api/client.ts.
 */

export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The web UI; with Accept: application/json, version discovery as at /api */
        get: operations["get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Version discovery, as OpenStack services answer it: the API versions this server speaks */
        get: operations["getApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit log: every change asked of the API and every refusal of one, newest first (without limit, the newest 1,000) */
        get: operations["getAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List environments */
        get: operations["getClusters"];
        put?: never;
        /** Create an environment from a release and chosen components (validated by the component engine); without components, the release's defaults. Fuel-shaped bodies are taken: release for release_id, and the design's id, nodes and tasks (ignored, with a warning in findings, when not empty) */
        post: operations["postClusters"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an environment */
        get: operations["getClustersById"];
        /** Move an environment to a newer version of its release (release upgrade): components, settings, plugins, node roles, disk layouts and networks are carried over. What no longer fits refuses the move (409 cluster/upgrade-unfit, every unfit thing in details.unfit, nothing changed) unless drop_unfit: true leaves it behind (listed in dropped). A deployed environment keeps its state and says deployed_release_id until it is deployed again */
        put: operations["putClustersById"];
        post?: never;
        /** Delete an environment (its nodes return to the unassigned pool). With nodes deployed on real hosts, say clean: true runs the deletion graph on them first (the environment is removing, deleted when it succeeded; 202 with the run), false deletes it now, the hosts keeping what was deployed */
        delete: operations["deleteClustersById"];
        options?: never;
        head?: never;
        /** Rename an environment */
        patch: operations["patchClustersById"];
        trace?: never;
    };
    "/api/v1/clusters/{id}/attributes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Settings, with a section per plugin (enabled, chosen version, versions available) */
        get: operations["getClustersByIdAttributes"];
        /** Change settings and enable, disable or switch plugin versions (dry_run shows what would change) */
        put: operations["putClustersByIdAttributes"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/components/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The wizard: every component checked, enabled or disabled with reasons, for a selection */
        get: operations["getClustersByIdComponentsState"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run the pre-deployment checks and start a deployment; answers 202 with the deployment to watch. Real on real nodes over SSH; dry_run: true simulates (the default when every node is simulated); simulated nodes in a real run are refused by name */
        post: operations["postClustersByIdDeploy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/deploy/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a deployment would run, before it runs: per node, each task of the graph, whether it runs and why (no condition, a lifecycle condition with the data that changed since the last deployment, a false condition, a marker, a task that succeeded in the run being resumed) */
        get: operations["getClustersByIdDeployPlan"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/deployments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deployments of an environment, newest first */
        get: operations["getClustersByIdDeployments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/deployments/{deployment}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One deployment: progress, and with tasks=true the status of every (node, task) */
        get: operations["getClustersByIdDeploymentsByDeployment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A live stream (Server-Sent Events) of an environment: `environment` (a Cluster), `node` (a Node) and `deployment` (a Deployment) events, each object's current state first, then whenever one changes (a run started or ended anywhere, a node gone offline); a node that left the environment is sent once more as it is now; `end` when the environment is deleted */
        get: operations["getClustersByIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/graphs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The graph types of the environment's release with its enabled plugins (default first): what POST /clusters/{id}/graphs/{type}/run can run */
        get: operations["getClustersByIdGraphs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/graphs/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The per-node deployment graph (json, dot or mermaid) */
        get: operations["getClustersByIdGraphsByType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/graphs/{type}/estimate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How long a run of the graph takes and its tasks' order, from each task's median in past real runs (this environment's, else its release's), its timeout where none ran */
        get: operations["getClustersByIdGraphsByTypeEstimate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/graphs/{type}/run": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Run any graph of the environment (provisioning, deletion, network_verification, custom ones, or default) on all its nodes with roles or on the nodes chosen; answers 202 with the run like POST /clusters/{id}/deploy. Only the default graph deploys roles */
        post: operations["postClustersByIdGraphsByTypeRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/inventory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The environment's real nodes as an Ansible inventory, grouped by role (deployed and pending), with how to reach each and its addresses, roles and volumes as host variables; simulated nodes are left out */
        get: operations["getClustersByIdInventory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/network_configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The environment's networks (Fuel's network_configuration) with what the checks found and what to change */
        get: operations["getClustersByIdNetworkConfiguration"];
        /** Change networks (cidr, gateway, vlan_start, ip_ranges, mtu; by id or name) and Neutron parameters; refused with every error finding, per network and field; node addresses follow the new plan */
        put: operations["putClustersByIdNetworkConfiguration"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/network_configuration/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify networks: on every real node, probe frames tagged with each network’s VLAN (untagged for untagged ones) are sent to the others over raw sockets and theirs listened for; also duplicate addresses (ARP), the gateway (ARP and ping on its VLAN) and large frames. Nothing of the nodes’ configuration changes. Answers the matrix per network, absent_vlans and what to check */
        post: operations["postClustersByIdNetworkConfigurationVerify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/nodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Nodes of an environment */
        get: operations["getClustersByIdNodes"];
        put?: never;
        /** Assign nodes to the environment with pending roles (role rules enforced); with dry_run=true, only say what the rules find */
        post: operations["postClustersByIdNodes"];
        /** Remove nodes from the environment: deployed ones are cleaned first (the deletion graph runs on them alone; they are removing meanwhile and leave when it succeeded; 202 with the run), the others leave at once (200); clean: false forgets deployed ones without running anything */
        delete: operations["deleteClustersByIdNodes"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/nodes/unassign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Take nodes out of the environment, as DELETE /clusters/{id}/nodes does (deployed nodes are cleaned by the deletion graph first and stay, removing, until it succeeded); answers the nodes still in the environment */
        post: operations["postClustersByIdNodesUnassign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reset an environment to undeployed: nodes keep their roles as pending, the deployed state is forgotten */
        post: operations["postClustersByIdReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Roles available to this environment (release and enabled plugins) */
        get: operations["getClustersByIdRoles"];
        put?: never;
        /** Add a role to one environment (Nailgun's role API: name, meta, volumes_roles_mapping) */
        post: operations["postClustersByIdRoles"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/roles/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One role available to the environment, as Nailgun's role API answers it: name, meta, volumes_roles_mapping */
        get: operations["getClustersByIdRolesByName"];
        /** Change a role added to an environment through this API */
        put: operations["putClustersByIdRolesByName"];
        post?: never;
        /** Delete a role added to an environment through this API; refused while one of its nodes holds it (naming the nodes) */
        delete: operations["deleteClustersByIdRolesByName"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop the environment's running deployment: nothing new starts; running tasks finish, or are killed after a grace period (grace_s, default 30 s) */
        post: operations["postClustersByIdStop"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/clusters/{id}/vips": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The environment's VIPs: one per VIP the network roles of the release and plugins ask for, from their network's ranges */
        get: operations["getClustersByIdVips"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deployments (real runs and dry runs) of every environment, or of one with cluster_id, newest first */
        get: operations["getDeployments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One deployment by its id: its environment, graph type, status, progress and message */
        get: operations["getDeploymentsById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A live stream (Server-Sent Events) of a deployment: `task` events as tasks start and end (the shape of GET /deployments/:id/tasks), `output` events with chunks of running tasks' output (when this server runs it), `deployment` with progress, and `end` when it is over */
        get: operations["getDeploymentsByIdEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{id}/live-output": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A running task's output so far (the last 1 MiB), kept by the server running the deployment; then follow GET /deployments/{id}/events */
        get: operations["getDeploymentsByIdLiveOutput"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/deployments/{id}/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A deployment's tasks, failures first: status, exit status, attempts, times, the reason; with output=true the last 1 MiB of each task's output */
        get: operations["getDeploymentsByIdTasks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/nodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List nodes */
        get: operations["getNodes"];
        put?: never;
        /** Register a real node (`address`: Hearth connects over SSH, records its host key and gathers its facts), simulated nodes by `nodes` name, or `simulate` any number of them */
        post: operations["postNodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/nodes/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One node: roles, status, how it is reached, its facts and its addresses (network_data) */
        get: operations["getNodesById"];
        put?: never;
        post?: never;
        /** Remove an unassigned node */
        delete: operations["deleteNodesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/nodes/{id}/disks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A node's disks and the volumes on each (MB): the layout the operator saved, else the default one from its disks, roles, release and plugins */
        get: operations["getNodesByIdDisks"];
        /** Save the operator's layout: per disk (by id), each volume's size in MB, and `exclude` for a free disk Hearth must not touch. Checked: disks the node has, volume names its roles bring, sizes that fit each disk, free disks only; volumes below their minimum are saved with a warning (a deployment refuses them) */
        put: operations["putNodesByIdDisks"];
        post?: never;
        /** Forget the saved layout: the node goes back to its default one, which follows its roles */
        delete: operations["deleteNodesByIdDisks"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/nodes/{id}/disks/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether a node's layout holds: where a saved layout no longer fits its roles, volumes below their minimum */
        get: operations["getNodesByIdDisksCheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/nodes/{id}/disks/defaults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A node's default layout: what its disks, roles, release and plugins give, whatever was saved */
        get: operations["getNodesByIdDisksDefaults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/nodes/{id}/interfaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The node's interfaces (its facts; three for a simulated node) with the networks assigned to each (Fuel's shape) */
        get: operations["getNodesByIdInterfaces"];
        /** Map the node's networks onto its interfaces (Fuel's shape: each interface with assigned_networks); a network left out stays where it is. The admin network stays on the interface Hearth reaches the node on */
        put: operations["putNodesByIdInterfaces"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/nodes/{id}/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Connect to a real node and gather its facts again (operator); accept_host_key (the fingerprint shown) replaces a changed host key (admin only) */
        post: operations["postNodesByIdRefresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/nodes/{id}/volumes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The volumes a node's roles bring, from its release and enabled plugins: Fuel's {name, label, min_size} (MB), with each group's logical volumes, sizes and mount points */
        get: operations["getNodesByIdVolumes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List installed plugins (every version) */
        get: operations["getPlugins"];
        put?: never;
        /** Install a plugin package: the body is the .tar.gz built by `hearth plugin build`, or a Fuel plugin .rpm or .fp as downloaded (the format is read from the bytes) */
        post: operations["postPlugins"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plugins/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A plugin: roles, components, tasks, releases */
        get: operations["getPluginsById"];
        put?: never;
        post?: never;
        /** Uninstall a plugin version (refused while an environment enables it) */
        delete: operations["deletePluginsById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plugins/{id}/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Re-read a registered plugin folder */
        post: operations["postPluginsByIdSync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plugins/folders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a plugin folder on the server's disk (plugin development); sync it after editing */
        post: operations["postPluginsFolders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List releases */
        get: operations["getReleases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/releases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a release */
        get: operations["getReleasesById"];
        put?: never;
        post?: never;
        /** Delete a release (refused while environments use it) */
        delete: operations["deleteReleasesById"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/releases/{id}/components": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Components of the release and of the installed plugins that fit it */
        get: operations["getReleasesByIdComponents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/releases/{id}/components/state": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The wizard before an environment exists: component states for a selection */
        get: operations["getReleasesByIdComponentsState"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/releases/{id}/findings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What composition found about the release with the installed plugins */
        get: operations["getReleasesByIdFindings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/releases/{id}/graphs/{type}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tasks of one graph type of the release */
        get: operations["getReleasesByIdGraphsByType"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/releases/{id}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Roles of the release (and of plugins that fit it, marked by source) */
        get: operations["getReleasesByIdRoles"];
        put?: never;
        /** Add a role to a release (Nailgun's role API: name, meta, volumes_roles_mapping); every environment on it can use it */
        post: operations["postReleasesByIdRoles"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/releases/{id}/roles/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One role of the release (its own, a plugin's that fits it, or one added), as Nailgun's role API answers it: name, meta, volumes_roles_mapping */
        get: operations["getReleasesByIdRolesByName"];
        /** Change a role added to a release through this API (its meta and volumes_roles_mapping) */
        put: operations["putReleasesByIdRolesByName"];
        post?: never;
        /** Delete a role added to a release through this API; refused while a node of an environment on it holds the role (naming the nodes) */
        delete: operations["deleteReleasesByIdRolesByName"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who this request is: user, role, how it signed in (and a session's CSRF token) */
        get: operations["getSession"];
        put?: never;
        /** Sign in with a name and a password: sets the session cookie, answers the CSRF token (failed sign-ins are slowed down per name and address) */
        post: operations["postSession"];
        /** Sign out: this session, or with everywhere=true every session of the user (a personal token may ask for everywhere too) */
        delete: operations["deleteSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/session/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change your own password, giving the current one (a wrong one counts as a failed sign-in); your other sessions end */
        put: operations["putSessionPassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/ssh-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Hearth's SSH public key: authorize it for the SSH user on every real node */
        get: operations["getSshKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/capabilities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The capability tags and types the templates declare (send the files; or paths under --templates-dir) */
        post: operations["postTemplatesCapabilities"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/find": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Templates whose capabilities meet the constraints (send the files; or paths under --templates-dir) */
        post: operations["postTemplatesFind"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/templates/resolve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resolve environment files into the chosen template per resource type (send the files; or paths under --templates-dir) */
        post: operations["postTemplatesResolve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Check the admin token (200 with it, 401 without) */
        get: operations["getToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your personal tokens (an admin: everyone's, or one user's with ?user=): name, role, expiry, last use; never the token */
        get: operations["getTokens"];
        put?: never;
        /** Create a personal API token (answered this once); its role defaults to, and may not exceed, its owner's */
        post: operations["postTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tokens/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke one of your tokens by name (an admin: another user's with ?user=); refused at once by every server */
        delete: operations["deleteTokensByName"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List users */
        get: operations["getUsers"];
        put?: never;
        /** Create a user */
        post: operations["postUsers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a user, with their tokens and sessions */
        delete: operations["deleteUsersByName"];
        options?: never;
        head?: never;
        /** Change a user's role, disable or enable them, or set their password (a disabled user or a new password ends their sessions) */
        patch: operations["patchUsersByName"];
        trace?: never;
    };
    "/api/v1/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server version and storage engine */
        get: operations["getVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthcheck": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Health check as oslo.middleware answers it: 200 "OK" when ready to serve, 503 with the reason when not (no token needed) */
        get: operations["getHealthcheck"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness probe: the process answers (no token needed) */
        get: operations["getHealthz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plugins/{folder}/repositories/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A file of a plugin's repository (`repository_path`), for nodes to install from; no token needed, as for a package mirror */
        get: operations["getPluginsByFolderRepositories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness probe: the database answers and its schema is current (503 when not) */
        get: operations["getReadyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schemas": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The plugin files' JSON Schemas, for editors */
        get: operations["getSchemas"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/schemas/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One plugin file JSON Schema */
        get: operations["getSchemasByFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description An environment (Fuel's cluster) */
        Cluster: {
            components: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            deployed_at: string | null;
            /** @description the release its nodes were last deployed with; differs from release_id after a release upgrade until it is deployed again (null: never deployed) */
            deployed_release_id?: string | null;
            /** @description at creation: what the component engine found (warnings) */
            findings?: components["schemas"]["Finding"][];
            id: number;
            name: string;
            /** @description how many nodes it has (one environment only) */
            nodes?: number;
            /** @description plugin name → the enabled version's id */
            plugins: {
                [key: string]: string;
            };
            release_id: string;
            /**
             * @description the lifecycle's environment state (docs/lifecycle.md): new, deploying, operational, partially_deployed, stopped, error, removing
             * @enum {string}
             */
            status: "new" | "deploying" | "operational" | "partially_deployed" | "stopped" | "error" | "removing";
        };
        Component: {
            default?: boolean;
            description?: string;
            label?: string;
            name: string;
            /** @description the plugin it comes from (null: the release) */
            plugin: {
                name: string;
                version: string;
            } | null;
            reasons?: string[];
            /** @description false: its plugin cannot be used with this release (see reasons) */
            usable?: boolean;
        } & {
            [key: string]: unknown;
        };
        ComponentState: {
            checked: boolean;
            /** @description choosing it leads to no valid completion */
            deadEnd: boolean;
            description?: string;
            enabled: boolean;
            /** @description the smallest change that enables it */
            fix: string[];
            /** @description tested with every other chosen component */
            green: boolean;
            group: string;
            label?: string;
            name: string;
            plugin?: {
                name: string;
                version: string;
            } | null;
            reasons: string[];
            /** @description a radio member: what choosing it unselects */
            replaces?: string[];
            type: string;
            /**
             * @description not proved either way: the state was asked for another pane (`pane`); shown disabled until its own pane is asked for
             * @constant
             */
            unchecked?: true;
            untested: string[];
        } & {
            [key: string]: unknown;
        };
        Deployment: {
            cluster_id: number;
            /** @description its tasks by outcome (docs/lifecycle.md); `done` equals `succeeded`, and the counts sum to `total` */
            counts?: {
                failed: number;
                killed: number;
                not_run: number;
                pending: number;
                running: number;
                skipped: number;
                stopped: number;
                succeeded: number;
                timed_out: number;
            };
            done: number;
            dry_run: boolean;
            /** Format: date-time */
            finished_at: string | null;
            graph_type: string;
            id: number;
            message: string | null;
            /** @enum {string} */
            mode: "dry-run" | "real";
            /** @description the share of its tasks that succeeded */
            progress: number;
            /** @description who asked for the run (a deployment, a resume, a node removal): a user's name, with the personal token used as 'name (token t)', or admin-token; null for runs from before accounts */
            requested_by?: string | null;
            /** @description nodes the run left out (offline, deployed with skip_offline) */
            skipped_nodes?: {
                id: number;
                name: string;
                reach_error?: string | null;
            }[];
            /** Format: date-time */
            started_at: string;
            /**
             * @description running; succeeded; failed; stopped (by the operator); interrupted (its server died: `--resume` continues it)
             * @enum {string}
             */
            status: "running" | "succeeded" | "failed" | "stopped" | "interrupted";
            /** Format: date-time */
            stopped_at?: string | null;
            /** @description a stopped run: who asked (the admin token, or a user) and from which address */
            stopped_by?: string;
            /** @description with tasks=true: every (node, task) in order */
            tasks?: {
                node: string;
                /**
                 * @description pending, running, succeeded, failed (exit status kept), timed_out, skipped (condition false, marker), not_run (a dependency did not succeed), stopped (the run stopped before it started), killed (a stop's grace period or a shutdown ended while it ran)
                 * @enum {string}
                 */
                outcome: "pending" | "running" | "succeeded" | "failed" | "timed_out" | "skipped" | "not_run" | "stopped" | "killed";
                position: number;
                status: string;
                task_id: string;
                /** @description the same as task_id (the older name) */
                taskId: string;
            }[];
            total: number;
        };
        DeploymentGraph: {
            barriers: {
                id: number;
                meaning: string;
                requires: ({
                    node: string;
                    task: string;
                } | {
                    barrier: number;
                })[];
            }[];
            critical_path: {
                node: string;
                task: string;
            }[];
            /** @description the tasks of a dependency cycle, when there is one */
            cycle: {
                node: string;
                task: string;
            }[] | null;
            findings: components["schemas"]["Finding"][];
            /** @description the estimated duration */
            makespan_s: number;
            /** @description with limit: the marker of the next page of nodes */
            next_marker?: string | null;
            nodes: {
                id: string;
                labels: string[];
                roles: string[];
                tasks: {
                    finish_s?: number;
                    id: string;
                    requires: ({
                        node: string;
                        task: string;
                    } | {
                        barrier: number;
                    })[];
                    skipped?: boolean;
                    /** @description the release or plugin whose definition the node runs */
                    source: string;
                    start_s?: number;
                    type: string;
                }[];
            }[];
            summary: {
                critical_path: {
                    node: string;
                    task: string;
                }[];
                edges: number;
                findings: components["schemas"]["Finding"][];
                makespan_s: number;
                nodes: number;
                tasks: number;
            };
        };
        DeployPlan: {
            counts: {
                /** @description stages, groups and tasks of type skipped: they run nothing */
                markers: number;
                nodes: number;
                /** @description nodes with a task that runs */
                nodes_run: number;
                /** @description tasks that will run */
                run: number;
                /** @description tasks that will not (condition false, or succeeded in the run resumed) */
                skipped: number;
            };
            /** @description a dependency cycle: nothing can run */
            cycle: {
                node: string;
                task: string;
            }[] | null;
            /** @description the deployment whose state lifecycle conditions compare with (the last successful one) */
            deployed_by: number | null;
            findings: components["schemas"]["Finding"][];
            /** @description nothing was deployed yet: every lifecycle condition (changed, new, ...) holds */
            first_deployment: boolean;
            graph_type: string;
            /** @description tasks of the graph's master node (Fuel's master), when it has any */
            master: {
                counts: {
                    /** @description stages, groups and tasks of type skipped: they run nothing */
                    markers: number;
                    /** @description tasks that will run */
                    run: number;
                    /** @description tasks that will not (condition false, or succeeded in the run resumed) */
                    skipped: number;
                };
                /** @description in the order the runner may start them */
                tasks: {
                    /**
                     * @description why, as a word: no condition; its condition holds or not; a marker that runs nothing; succeeded in the run being resumed
                     * @enum {string}
                     */
                    cause: "no_condition" | "condition_true" | "condition_false" | "marker" | "resumed";
                    id: string;
                    /** @description why, in words: 'changed($.uid): the node is new', 'changed($.network_metadata.nodes): 1 node added (…)', 'no condition: runs on every deployment', … */
                    reason: string;
                    runs: boolean;
                    type: string;
                }[];
            } | null;
            nodes: {
                counts: {
                    /** @description stages, groups and tasks of type skipped: they run nothing */
                    markers: number;
                    /** @description tasks that will run */
                    run: number;
                    /** @description tasks that will not (condition false, or succeeded in the run resumed) */
                    skipped: number;
                };
                id: number;
                name: string;
                /** @description not in the last deployment */
                new: boolean;
                roles: string[];
                /** @description in the order the runner may start them */
                tasks: {
                    /**
                     * @description why, as a word: no condition; its condition holds or not; a marker that runs nothing; succeeded in the run being resumed
                     * @enum {string}
                     */
                    cause: "no_condition" | "condition_true" | "condition_false" | "marker" | "resumed";
                    id: string;
                    /** @description why, in words: 'changed($.uid): the node is new', 'changed($.network_metadata.nodes): 1 node added (…)', 'no condition: runs on every deployment', … */
                    reason: string;
                    runs: boolean;
                    type: string;
                }[];
            }[];
            /** @description with resume=true: the deployment this run would continue */
            resumes: number | null;
        };
        Error: {
            /** @description stable, kebab-case, grouped by area */
            code: string;
            /** @description findings or other structured detail */
            details?: unknown;
            message: string;
        };
        /** @description Something the engine found: a stable code, a severity, a message in words, where (file, line, column) and what to do (hint) */
        Finding: {
            code: string;
            column?: number;
            file?: string;
            hint?: string;
            line?: number;
            message: string;
            /** @enum {string} */
            severity: "error" | "warning" | "info";
        } & {
            [key: string]: unknown;
        };
        GraphType: {
            /** @description its name, when the release or a plugin gives one */
            name?: string;
            /** @description tasks the graph declares (before it is expanded per node) */
            tasks: number;
            /** @description the graph type, as POST /clusters/{id}/graphs/{type}/run takes it */
            type: string;
        };
        Network: {
            /** @description IPv4 CIDR; null for networks without addresses (admin, Neutron VLAN private) */
            cidr: string | null;
            gateway: string | null;
            group_id?: number | null;
            /** @description the network's number in its environment (assigned_networks refer to it) */
            id: number;
            /** @description where node addresses and VIPs come from */
            ip_ranges: string[][];
            /** @description the release's description of the network: notation, map_priority, use_gateway, assign_vip, configurable, ... */
            meta: {
                [key: string]: unknown;
            };
            /** @description the MTU frames on this network must pass (network_scheme sets it on the network's ports; Verify networks sends frames of this size); absent or null: the interfaces' own */
            mtu?: number | null;
            name: string;
            /** @description the VLAN tag; null: untagged */
            vlan_start: number | null;
        };
        NetworkConfiguration: {
            /** @description the checks Fuel made before a deployment, for every network; errors refuse a deployment */
            findings: components["schemas"]["NetworkFinding"][];
            /** @description Neutron's parameters: segmentation_type, vlan_range, gre_id_range, floating_ranges, internal_cidr, dns_nameservers, ... */
            networking_parameters: {
                dns_nameservers?: string[];
                floating_ranges?: string[][];
                segmentation_type?: string;
                vlan_range?: number[] | null;
            } & {
                [key: string]: unknown;
            };
            networks: components["schemas"]["Network"][];
            /** @description false while the environment has the release's defaults */
            saved?: boolean;
        };
        /** @description What the network checks found, with the networks involved, the field to change and what to change it to */
        NetworkFinding: {
            code: string;
            /** @description the field to edit: `public.cidr`, `networking_parameters.floating_ranges`, ... */
            field?: string;
            hint: string;
            interface?: string;
            message: string;
            networks: string[];
            /** @description the node, where the finding is about its wiring */
            node?: string;
            /** @enum {string} */
            severity: "error" | "warning";
        };
        Node: {
            address?: string;
            cluster_id: number | null;
            /** @description what Hearth gathered on the host (one node only; null before it could) */
            facts?: components["schemas"]["NodeFacts"] | null;
            /** Format: date-time */
            facts_at?: string | null;
            hardware: {
                cpus?: number;
                disks_gb?: number[];
                memory_gb?: number;
            } & {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description when that was
             */
            host_key_accepted_at?: string | null;
            /** @description who last accepted a changed host key (a user, a user's token, or admin-token); null when none was */
            host_key_accepted_by?: string | null;
            host_key_fingerprint?: string | null;
            id: number;
            name: string;
            /** @description the node's addresses, one per network it is on (Fuel's network_data) */
            network_data?: {
                cidr?: string | null;
                /** @description the interface the network is mapped to */
                dev: string | null;
                gateway: string | null;
                /** @description address/prefix; null where the network has no address for it */
                ip: string | null;
                name: string;
                vlan: number | null;
            }[];
            /** @description roles assigned, not yet deployed */
            pending_roles: string[];
            /** @description why the node could not be reached last time (null when it could) */
            reach_error?: {
                /** Format: date-time */
                at: string;
                code: string;
                /** @description a changed host key: the one the node shows now */
                host_key?: string;
                message: string;
            } | null;
            /** @description deployed roles */
            roles: string[];
            /** @description a simulated node (no host behind it); real nodes carry how they are reached */
            simulated?: boolean;
            ssh_port?: number;
            ssh_user?: string;
            /**
             * @description the lifecycle's node state (docs/lifecycle.md): discover, discovered, provisioning, provisioned, deploying, ready, error, offline, removing; `ready` is deployed and healthy, as in Fuel
             * @enum {string}
             */
            status: "discover" | "discovered" | "provisioning" | "provisioned" | "deploying" | "ready" | "error" | "offline" | "removing";
        };
        NodeFacts: {
            cpus: number | null;
            disks: {
                /** @description Holds / (itself or a volume on it) */
                holds_root?: boolean;
                /** @description Stable disk id, as Fuel's: a disk/by-path/… or disk/by-id/… link, else the device name */
                id?: string;
                /** @description Holds a mounted filesystem, /, swap, a partition table, or a filesystem, LVM or RAID signature: Hearth never touches it */
                in_use?: boolean;
                /** @description Why the disk is in use, in words */
                in_use_reasons?: string[];
                model: string | null;
                name: string;
                rotational: boolean | null;
                /** @description Whole disk in MB (MiB) */
                size?: number;
                size_bytes: number;
                type: string;
            }[];
            hostname: string;
            interfaces: {
                addresses: string[];
                mac: string | null;
                name: string;
                speed_mbps: number | null;
                state: string;
            }[];
            memory_bytes: number | null;
            os: {
                id: string | null;
                pretty_name: string | null;
                version_id: string | null;
            };
        };
        NodeInterface: {
            assigned_networks: {
                id?: number;
                name: string;
            }[];
            /** @description Mb/s */
            current_speed?: number | null;
            ip_addresses?: string[];
            mac?: string | null;
            name: string;
            /** @description the interface Hearth reaches the node on (it carries the admin network) */
            pxe?: boolean;
            state?: string;
            type: string;
        };
        Plugin: {
            description: string | null;
            /** @description `<name>@<version>` */
            id: string;
            /** Format: date-time */
            installed_at: string;
            /** @description it defines releases (a release plugin) */
            is_release: boolean;
            name: string;
            package_version: string;
            /** @description the folder it is read from (registered folders and the bundled release) */
            path: string | null;
            /** @enum {string} */
            source: "package" | "folder" | "bundled";
            /** Format: date-time */
            synced_at: string;
            title: string;
            version: string;
        };
        PluginDetail: {
            components: {
                description: string | null;
                label: string | null;
                name: string;
            }[];
            defines_releases: string[];
            description: string | null;
            findings: components["schemas"]["Finding"][];
            /** @description `<name>@<version>` */
            id: string;
            install_findings: components["schemas"]["Finding"][];
            /** Format: date-time */
            installed_at: string;
            /** @description it defines releases (a release plugin) */
            is_release: boolean;
            name: string;
            package_version: string;
            /** @description the folder it is read from (registered folders and the bundled release) */
            path: string | null;
            release_findings: components["schemas"]["ReleaseValidation"][];
            release_fits: {
                fits: boolean;
                reasons: string[];
                release: string;
                release_id: string;
            }[];
            /** @description the releases metadata.yaml lists */
            releases: {
                [key: string]: unknown;
            }[];
            roles: {
                conflicts: unknown;
                description: string | null;
                label: string;
                limits: unknown;
                name: string;
            }[];
            /** @enum {string} */
            source: "package" | "folder" | "bundled";
            /** Format: date-time */
            synced_at: string;
            /** @description graph type → its tasks */
            tasks: {
                [key: string]: {
                    id: string;
                    roles: unknown;
                    type: string;
                }[];
            };
            title: string;
            /** @description environments that enable it */
            used_by: {
                id: number;
                name: string;
            }[];
            version: string;
        };
        PluginInstalled: {
            findings: components["schemas"]["Finding"][];
            plugin: components["schemas"]["Plugin"];
            release_findings: components["schemas"]["ReleaseValidation"][];
        };
        PluginSection: {
            chosen_version: string | null;
            enabled: boolean;
            /** @description why it cannot be disabled now */
            locked_reason: string | null;
            name: string;
            title: string;
            versions: {
                fits: boolean;
                id: string;
                reason: string;
                version: string;
            }[];
        };
        Release: {
            description: string | null;
            graph_types: string[];
            id: string;
            name: string;
            operating_system: string;
            /** @description the release plugin that brought it (null: imported) */
            plugin_id: string | null;
            roles: string[];
            state: string;
            version: string;
        };
        ReleaseDetail: {
            description: string | null;
            graph_types: string[];
            id: string;
            name: string;
            operating_system: string;
            /** @description the release plugin that brought it (null: imported) */
            plugin_id: string | null;
            required_component_types: string[];
            roles: string[];
            source?: string;
            state: string;
            version: string;
        };
        ReleaseValidation: {
            findings: components["schemas"]["Finding"][];
            /** @description `<name> <version>` */
            release: string;
            release_id: string;
        };
        Role: {
            /** @description role names, or "*" for all */
            conflicts?: unknown;
            description?: string;
            label: string;
            /** @description min, max, recommended and their overrides, as node_roles.yaml writes them */
            limits?: unknown;
            name: string;
            /** @description Fuel's restrictions: a met `disable` one makes the role unavailable */
            restrictions?: unknown;
            /** @description `release` or the plugin that brings the role */
            source: string;
        };
        /** @description section name → its fields (each a setting with its value) and metadata */
        Settings: {
            [key: string]: {
                metadata?: {
                    class?: string;
                    enabled?: boolean;
                    group?: string;
                    label?: string;
                    restrictions?: unknown;
                    toggleable?: boolean;
                    weight?: number;
                } & {
                    [key: string]: unknown;
                };
            } & {
                [key: string]: unknown;
            };
        };
        TaskRun: {
            attempts: number;
            exit_status: number | null;
            /** Format: date-time */
            finished_at: string | null;
            message: string | null;
            /** @description node id, or `sync`/`master` for the graph's own steps */
            node: string;
            /**
             * @description pending, running, succeeded, failed (exit status kept), timed_out, skipped (condition false, marker), not_run (a dependency did not succeed), stopped (the run stopped before it started), killed (a stop's grace period or a shutdown ended while it ran)
             * @enum {string}
             */
            outcome?: "pending" | "running" | "succeeded" | "failed" | "timed_out" | "skipped" | "not_run" | "stopped" | "killed";
            /** @description with output=true: the last 1 MiB of its output */
            output?: string | null;
            position: number;
            /** Format: date-time */
            started_at: string | null;
            /**
             * @description Nailgun's status, kept for older clients; `outcome` says why it ended
             * @enum {string}
             */
            status: "pending" | "running" | "ready" | "error" | "skipped" | "stopped";
            task_id: string;
            type: string | null;
        };
        Vip: {
            ipaddr: string;
            is_user_defined: boolean;
            name: string;
            namespace: string | null;
            network: string;
            network_role: string;
            node_roles: string[];
        };
        WizardState: {
            blocked?: string;
            completable: boolean;
            components: components["schemas"]["ComponentState"][];
            findings: components["schemas"]["Finding"][];
            valid: boolean;
        } & {
            [key: string]: unknown;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JSON asked (Accept: application/json): the API versions; otherwise the web UI */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        versions: {
                            /** @description the version, as in the path (v1) */
                            id: string;
                            links: {
                                /** @description absolute: HEARTH_PUBLIC_URL's origin when set, else the request's own */
                                href: string;
                                rel: string;
                            }[];
                            /**
                             * @description as OpenStack services say it
                             * @enum {string}
                             */
                            status: "CURRENT" | "SUPPORTED" | "DEPRECATED";
                        }[];
                    };
                    "text/html": string;
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the API versions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        versions: {
                            /** @description the version, as in the path (v1) */
                            id: string;
                            links: {
                                /** @description absolute: HEARTH_PUBLIC_URL's origin when set, else the request's own */
                                href: string;
                                rel: string;
                            }[];
                            /**
                             * @description as OpenStack services say it
                             * @enum {string}
                             */
                            status: "CURRENT" | "SUPPORTED" | "DEPRECATED";
                        }[];
                    };
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAudit: {
        parameters: {
            query?: {
                actor?: string;
                limit?: number;
                marker?: string;
                object?: string;
                since?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the entries, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the user's name, 'admin-token' for the admin token, null when nobody was proved (or the name a sign-in asked for) */
                        actor: string | null;
                        address: string | null;
                        /** Format: date-time */
                        at: string;
                        /** @description a refusal's or failure's error code */
                        code?: string;
                        /** @description the run the request started or acted on */
                        deployment_id?: number;
                        /** @description the entry (the marker of the next page) */
                        id: number;
                        method: string;
                        /** @description what it acted on: kind/id (environment/3, node/12, plugin/…, release/…, user/…, token/…, deployment/…), or the kind alone */
                        object: string | null;
                        /** @enum {string} */
                        outcome: "done" | "refused" | "failed";
                        /** @description the route as declared, e.g. /api/v1/clusters/:id/deploy */
                        route: string;
                        /** @description the HTTP status answered */
                        status: number;
                        /** @description the personal token's name, when via is token */
                        token_name?: string;
                        /** @enum {string} */
                        via: "admin-token" | "session" | "token" | "none";
                    }[];
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the credential is good but its role is too low, or a session's change lacks its CSRF token or came from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClusters: {
        parameters: {
            query?: {
                limit?: number;
                marker?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description every environment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cluster"][];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postClusters: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    components?: string[];
                    /** @description ignored: the server gives the id */
                    id?: number | string | null;
                    name: string;
                    /** @description ignored: add nodes with POST /clusters/{id}/nodes */
                    nodes?: unknown[];
                    /** @description Fuel's name for release_id (Nailgun's clients send it) */
                    release?: string | number;
                    release_id?: string;
                    /** @description ignored: tasks come from the release and its plugins */
                    tasks?: unknown[];
                };
            };
        };
        responses: {
            /** @description created, with what the component engine found and what of the body was ignored */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cluster"];
                };
            };
            /** @description error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the environment, with how many nodes it has */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cluster"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putClustersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description leave behind what does not fit the new release instead of refusing */
                    drop_unfit?: boolean;
                    /** @description a new name too (optional) */
                    name?: string;
                    /** @description the release to move to (another version of the environment's release) */
                    release_id: string;
                };
            };
        };
        responses: {
            /** @description moved (or already on that release), with what was left behind */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        components: string[];
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        deployed_at: string | null;
                        /** @description the release its nodes were last deployed with; differs from release_id after a release upgrade until it is deployed again (null: never deployed) */
                        deployed_release_id?: string | null;
                        /** @description what was left behind because it does not fit the new release (drop_unfit) */
                        dropped: {
                            /** @enum {string} */
                            kind: "plugin" | "component" | "setting" | "role" | "disk_layout" | "network";
                            /** @description the plugin id, component, setting (section.field), role, node (disk layout) or network */
                            name: string;
                            nodes?: {
                                id: number;
                                name: string;
                            }[];
                            reason: string;
                        }[];
                        /** @description at creation: what the component engine found (warnings) */
                        findings?: components["schemas"]["Finding"][];
                        id: number;
                        name: string;
                        /** @description how many nodes it has (one environment only) */
                        nodes?: number;
                        /** @description plugin name → the enabled version's id */
                        plugins: {
                            [key: string]: string;
                        };
                        release_id: string;
                        /**
                         * @description the lifecycle's environment state (docs/lifecycle.md): new, deploying, operational, partially_deployed, stopped, error, removing
                         * @enum {string}
                         */
                        status: "new" | "deploying" | "operational" | "partially_deployed" | "stopped" | "error" | "removing";
                        /** @description the release it had before (the same as release_id when nothing changed) */
                        upgraded_from: string;
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteClustersById: {
        parameters: {
            query?: {
                clean?: boolean;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the deletion graph runs on the deployed nodes; the environment is deleted when it succeeded */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description deployed nodes the deletion graph runs on (status removing); each leaves the environment when it succeeded on it */
                        cleaning: {
                            id: number;
                            name: string;
                        }[];
                        /** @description the deletion run to follow (GET /deployments/{id}), or null when nothing runs */
                        deployment: components["schemas"]["Deployment"] | null;
                        /** @description nodes that left the environment at once (never deployed, simulated, or forgotten with clean: false) */
                        left: {
                            id: number;
                            name: string;
                        }[];
                        /** @description what happens, in plain words */
                        message: string;
                        /** @description the nodes still in the environment (those being cleaned among them) */
                        nodes: components["schemas"]["Node"][];
                        /** @description deployed nodes forgotten without cleaning (clean: false): their hosts keep what was deployed */
                        not_cleaned: {
                            id: number;
                            name: string;
                        }[];
                    };
                };
            };
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchClustersById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description renamed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cluster"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdAttributes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description settings and plugin sections */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        editable: components["schemas"]["Settings"];
                        plugins: components["schemas"]["PluginSection"][];
                    };
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putClustersByIdAttributes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    dry_run?: boolean;
                    editable?: {
                        [key: string]: unknown;
                    };
                    plugins?: {
                        [key: string]: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description what changed (or would change), and the settings as they stand */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the settings whose value changed (`section.field`) */
                        changed: string[];
                        dry_run: boolean;
                        editable: components["schemas"]["Settings"];
                        plugin_sections: components["schemas"]["PluginSection"][];
                        /** @description plugins enabled, disabled or switched (ids), and the roles, components and tasks that come and go with them */
                        plugins: {
                            components: {
                                added: string[];
                                removed: string[];
                            };
                            disable: string[];
                            enable: string[];
                            roles: {
                                added: string[];
                                removed: string[];
                            };
                            switch: {
                                from: string;
                                name: string;
                                to: string;
                            }[];
                            tasks: {
                                added: string[];
                                removed: string[];
                            };
                        } | null;
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdComponentsState: {
        parameters: {
            query?: {
                pane?: "compute" | "network" | "storage" | "additional";
                select?: string;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the state of every component */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WizardState"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postClustersByIdDeploy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    dry_run?: boolean;
                    graph_type?: string;
                    max_parallel?: number;
                    resume?: boolean;
                    simulate_failure?: {
                        task: string;
                    };
                    /** @description leave offline nodes out of a real run (listed in its skipped_nodes) instead of refusing with 409 deploy/nodes-offline */
                    skip_offline?: boolean;
                };
            };
        };
        responses: {
            /** @description started: the deployment to watch (GET /deployments/{id}/tasks, /events) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdDeployPlan: {
        parameters: {
            query?: {
                graph_type?: string;
                resume?: boolean;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the plan */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeployPlan"];
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdDeployments: {
        parameters: {
            query?: {
                limit?: number;
                marker?: string;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its deployments */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"][];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdDeploymentsByDeployment: {
        parameters: {
            query?: {
                tasks?: boolean;
            };
            header?: never;
            path: {
                deployment: number;
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the deployment (with tasks=true, its tasks) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-Sent Events: `environment` (a Cluster), `node` (a Node; a node deleted meanwhile as {id, status: null, cluster_id: null, deleted: true}), `deployment` (a Deployment), `end` ({id, deleted, message}); a comment line every 15 s of quiet */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many at once from this client (open event streams), or too many failed sign-ins: wait and try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdGraphs: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its graph types */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GraphType"][];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdGraphsByType: {
        parameters: {
            query?: {
                format?: "json" | "dot" | "mermaid";
                limit?: number;
                marker?: string;
                node?: string;
            };
            header?: never;
            path: {
                id: number;
                type: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the graph in the format asked for; its ETag names the environment's state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentGraph"];
                    "text/plain": string;
                    "text/vnd.graphviz": string;
                };
            };
            /** @description unchanged since the ETag sent in If-None-Match */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdGraphsByTypeEstimate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                type: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the estimate */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        critical_path: {
                            node: string;
                            task: string;
                        }[];
                        graph_type: string;
                        /** @description estimated seconds the run takes, played as the runner walks the graph (one task a node at a time, 50 at once) */
                        makespan_s: number;
                        /** @description the tasks in the order the runner starts them (the first 20,000) */
                        order: {
                            /**
                             * @description where the duration comes from: the median of this environment's past real runs, of this release's, or the task's timeout (no past run)
                             * @enum {string}
                             */
                            basis: "environment" | "release" | "timeout";
                            duration_s: number;
                            node: string;
                            /** @description past runs its median comes from */
                            runs?: number;
                            start_s: number;
                            task: string;
                        }[];
                        order_total: number;
                        /** @description real runs of this graph measured: of this environment, of every environment of its release */
                        past_runs: {
                            environment: number;
                            release: number;
                        };
                        /** @description tasks (by id) whose duration comes from each basis */
                        tasks: {
                            environment: number;
                            release: number;
                            timeout: number;
                        };
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postClustersByIdGraphsByTypeRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                type: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    dry_run?: boolean;
                    max_parallel?: number;
                    /** @description node ids to run on (default: every node of the environment with roles) */
                    nodes?: number[];
                    resume?: boolean;
                    /** @description leave offline nodes out of a real run instead of refusing with 409 deploy/nodes-offline */
                    skip_offline?: boolean;
                };
            };
        };
        responses: {
            /** @description started: the run to watch (GET /deployments/{id}, /deployments/{id}/events) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdInventory: {
        parameters: {
            query?: {
                format?: "json" | "yaml" | "ini";
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the inventory in the format asked for */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        _meta: {
                            /** @description the environment, and its simulated nodes, left out of the inventory (Ansible ignores this key) */
                            hearth: {
                                environment: {
                                    id: number;
                                    name: string;
                                };
                                simulated_nodes: {
                                    id: number;
                                    name: string;
                                }[];
                            };
                            /** @description each host's variables: ansible_host, ansible_port, ansible_user, ansible_ssh_private_key_file (the key this server logs in with, when it has one), and hearth_uid, hearth_name, hearth_fqdn, hearth_roles, hearth_pending_roles, hearth_status, hearth_environment, hearth_host_key, hearth_addresses, hearth_network_data, hearth_node_volumes (docs/inventory.md) */
                            hostvars: {
                                [key: string]: {
                                    [key: string]: unknown;
                                };
                            };
                        };
                        all: {
                            /** @description the groups: one a role, and ungrouped for nodes without roles */
                            children: string[];
                        };
                    } & {
                        [key: string]: {
                            /** @description the group's hosts (node names) */
                            hosts: string[];
                        };
                    };
                    "application/yaml": string;
                    "text/plain": string;
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdNetworkConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description networks, Neutron parameters and findings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NetworkConfiguration"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putClustersByIdNetworkConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description check the change and answer the configuration it would make, without saving it */
                    dry_run?: boolean;
                    networking_parameters?: {
                        dns_nameservers?: string[];
                        floating_ranges?: string[][];
                        gre_id_range?: number[] | null;
                        vlan_range?: number[] | null;
                    } & {
                        [key: string]: unknown;
                    };
                    networks?: (({
                        cidr?: string | null;
                        gateway?: string | null;
                        id?: number;
                        ip_ranges?: string[][];
                        /** @description the MTU frames on this network must pass (576-9216); null: the interfaces' own */
                        mtu?: number | null;
                        name?: string;
                        vlan_start?: number | null;
                    } & {
                        [key: string]: unknown;
                    }) | unknown | unknown)[];
                };
            };
        };
        responses: {
            /** @description the configuration as saved (or as it would be, with dry_run), with the findings left */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NetworkConfiguration"];
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postClustersByIdNetworkConfigurationVerify: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description seconds each probe listens (default 8) */
                    budget_s?: number;
                };
            };
        };
        responses: {
            /** @description the verification */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Fuel’s: per node and interface, the VLANs on which it heard none of its peers */
                        absent_vlans: {
                            absent_vlans: number[];
                            interface: string;
                            name: string;
                            uid: string;
                        }[];
                        /** @description the run in the environment’s history (graph type verify_networks), with each node’s probe output */
                        deployment_id: number;
                        findings: {
                            code: string;
                            hint?: string;
                            message: string;
                            severity: string;
                        }[];
                        networks: {
                            /** @description heard[a][b]: node a heard node b on this network (null: a did not answer) */
                            heard: {
                                [key: string]: {
                                    [key: string]: boolean | null;
                                };
                            };
                            network: string;
                            nodes: {
                                interface: string;
                                name: string;
                                node: string;
                            }[];
                            passes: boolean;
                            /** @description null: untagged */
                            vlan: number | null;
                            /** @description a network of many VLANs (Neutron's tenant range on private, VLAN segmentation): every one probed; a pair is heard when it is heard on all of them */
                            vlans?: number[];
                        }[];
                        nodes: {
                            answered: boolean;
                            failure: string | null;
                            name: string;
                            uid: string;
                        }[];
                        /** @enum {string} */
                        status: "passed" | "failed";
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdNodes: {
        parameters: {
            query?: {
                limit?: number;
                marker?: string;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its nodes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Node"][];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postClustersByIdNodes: {
        parameters: {
            query?: {
                dry_run?: boolean;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    assignments: {
                        node_id: number;
                        roles: string[];
                    }[];
                };
            };
        };
        responses: {
            /** @description the environment's nodes and the rules' warnings; with dry_run, whether it would be accepted and why */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description warnings: limits are judged when the environment deploys */
                        findings: components["schemas"]["Finding"][];
                        nodes: components["schemas"]["Node"][];
                    } | {
                        findings: components["schemas"]["Finding"][];
                        /** @description dry_run: whether the assignment would be accepted */
                        ok: boolean;
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteClustersByIdNodes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description run the deletion graph on deployed nodes first (default true); false forgets them, their hosts keep what was deployed */
                    clean?: boolean;
                    node_ids: number[];
                };
            };
        };
        responses: {
            /** @description done: every node left at once */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description deployed nodes the deletion graph runs on (status removing); each leaves the environment when it succeeded on it */
                        cleaning: {
                            id: number;
                            name: string;
                        }[];
                        /** @description the deletion run to follow (GET /deployments/{id}), or null when nothing runs */
                        deployment: components["schemas"]["Deployment"] | null;
                        /** @description nodes that left the environment at once (never deployed, simulated, or forgotten with clean: false) */
                        left: {
                            id: number;
                            name: string;
                        }[];
                        /** @description what happens, in plain words */
                        message: string;
                        /** @description the nodes still in the environment (those being cleaned among them) */
                        nodes: components["schemas"]["Node"][];
                        /** @description deployed nodes forgotten without cleaning (clean: false): their hosts keep what was deployed */
                        not_cleaned: {
                            id: number;
                            name: string;
                        }[];
                    };
                };
            };
            /** @description the deletion graph runs on the deployed nodes: follow the deployment */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description deployed nodes the deletion graph runs on (status removing); each leaves the environment when it succeeded on it */
                        cleaning: {
                            id: number;
                            name: string;
                        }[];
                        /** @description the deletion run to follow (GET /deployments/{id}), or null when nothing runs */
                        deployment: components["schemas"]["Deployment"] | null;
                        /** @description nodes that left the environment at once (never deployed, simulated, or forgotten with clean: false) */
                        left: {
                            id: number;
                            name: string;
                        }[];
                        /** @description what happens, in plain words */
                        message: string;
                        /** @description the nodes still in the environment (those being cleaned among them) */
                        nodes: components["schemas"]["Node"][];
                        /** @description deployed nodes forgotten without cleaning (clean: false): their hosts keep what was deployed */
                        not_cleaned: {
                            id: number;
                            name: string;
                        }[];
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postClustersByIdNodesUnassign: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description run the deletion graph on deployed nodes first (default true); false forgets them, their hosts keep what was deployed */
                    clean?: boolean;
                    node_ids: number[];
                };
            };
        };
        responses: {
            /** @description the nodes left in the environment (those being cleaned among them, removing) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Node"][];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postClustersByIdReset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description reset */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Cluster"];
                };
            };
            /** @description error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdRoles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description roles, by weight */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Role"][];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postClustersByIdRoles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    meta: {
                        conflicts?: string[] | string;
                        description: string;
                        group?: string;
                        has_primary?: boolean;
                        limits?: {
                            condition?: string;
                            max?: string | number;
                            min?: string | number;
                            overrides?: {
                                condition: string;
                                max?: string | number;
                                message?: string;
                                min?: string | number;
                                recommended?: string | number;
                            }[];
                            recommended?: string | number;
                        };
                        /** @description the label shown */
                        name: string;
                        public_ip_required?: boolean;
                        restrictions?: unknown[];
                        tags: string[];
                        update_once?: string[];
                        update_required?: string[];
                        weight?: number;
                    };
                    name: string;
                    volumes_roles_mapping: {
                        /** @enum {string} */
                        allocate_size: "all" | "min" | "full-disk";
                        id: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description added */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: {
                            [key: string]: unknown;
                        };
                        name: string;
                        volumes_roles_mapping: {
                            /** @enum {string} */
                            allocate_size: "all" | "min" | "full-disk";
                            id: string;
                        }[];
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdRolesByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the role */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: {
                            [key: string]: unknown;
                        };
                        name: string;
                        volumes_roles_mapping: {
                            allocate_size?: string;
                            id: string;
                        }[];
                    };
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putClustersByIdRolesByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    meta: {
                        conflicts?: string[] | string;
                        description: string;
                        group?: string;
                        has_primary?: boolean;
                        limits?: {
                            condition?: string;
                            max?: string | number;
                            min?: string | number;
                            overrides?: {
                                condition: string;
                                max?: string | number;
                                message?: string;
                                min?: string | number;
                                recommended?: string | number;
                            }[];
                            recommended?: string | number;
                        };
                        /** @description the label shown */
                        name: string;
                        public_ip_required?: boolean;
                        restrictions?: unknown[];
                        tags: string[];
                        update_once?: string[];
                        update_required?: string[];
                        weight?: number;
                    };
                    name?: string;
                    volumes_roles_mapping: {
                        /** @enum {string} */
                        allocate_size: "all" | "min" | "full-disk";
                        id: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: {
                            [key: string]: unknown;
                        };
                        name: string;
                        volumes_roles_mapping: {
                            /** @enum {string} */
                            allocate_size: "all" | "min" | "full-disk";
                            id: string;
                        }[];
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteClustersByIdRolesByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postClustersByIdStop: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @description seconds running tasks may take to finish before they are killed (default 30); the server running the deployment applies it, also when the stop reaches it through the database from another server */
                    grace_s?: number;
                };
            };
        };
        responses: {
            /** @description stopping: the deployment, which ends as stopped */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getClustersByIdVips: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the VIPs, by name */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Vip"][];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeployments: {
        parameters: {
            query?: {
                cluster_id?: number;
                limit?: number;
                marker?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the deployments, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"][];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the deployment */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deployment"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentsByIdEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-Sent Events: `task` (a TaskRun), `output` ({node, task_id, chunk}), `deployment` and `end` (a Deployment) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many at once from this client (open event streams), or too many failed sign-ins: wait and try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentsByIdLiveOutput: {
        parameters: {
            query: {
                node: string;
                task: string;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the task's output so far */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description characters the task has printed in all: `output` ends there, and the live stream's next `output` chunk for this task has this `offset` */
                        end: number;
                        /** @description true when this server runs the deployment now; false when it ended or runs on another server (then `output` is null: read GET /deployments/{id}/tasks?output=true once the task ends) */
                        live: boolean;
                        node: string;
                        /** @description the task's last 1 MiB of output so far (stdout and stderr interleaved, ANSI escapes as printed); null when none is kept */
                        output: string | null;
                        task_id: string;
                    };
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeploymentsByIdTasks: {
        parameters: {
            query?: {
                node?: string;
                outcome?: "pending" | "running" | "succeeded" | "failed" | "timed_out" | "skipped" | "not_run" | "stopped" | "killed";
                output?: boolean;
                status?: "pending" | "running" | "ready" | "error" | "skipped";
                task?: string;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its tasks, failures first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TaskRun"][];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNodes: {
        parameters: {
            query?: {
                cluster_id?: number;
                limit?: number;
                marker?: string;
                unassigned?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description nodes (real ones without their facts) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Node"][];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postNodes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    address?: string;
                    cluster_id?: number;
                    name?: string;
                    nodes?: {
                        hardware?: {
                            cpus?: number;
                            disks_gb?: number[];
                            memory_gb?: number;
                        };
                        name: string;
                    }[];
                    simulate?: {
                        count: number;
                        hardware?: {
                            cpus?: number;
                            disks_gb?: number[];
                            memory_gb?: number;
                        };
                        prefix?: string;
                    };
                    ssh_port?: number;
                    ssh_user?: string;
                };
            };
        };
        responses: {
            /** @description registered */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the new nodes' ids */
                        ids: number[];
                        node?: components["schemas"]["Node"];
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the node could not be reached or identified */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNodesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the node */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Node"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteNodesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNodesByIdDisks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its disks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        /** @description the whole disk, MB (MiB) */
                        disk_size?: number;
                        /** @description the operator keeps Hearth off this free disk */
                        exclude?: boolean;
                        /** @description holds /: the operating system's volumes are checked against it */
                        holds_root?: boolean;
                        /** @description stable id: the disk/by-path (or by-id) link, else the device name */
                        id: string;
                        /** @description holds something (a filesystem, /, swap, a partition table, a signature): Hearth leaves it as it is */
                        in_use: boolean;
                        /** @description device name (sda, vdb, loop3) */
                        name: string;
                        /** @description MB the volumes may take on this disk (MiB) */
                        size: number;
                        volumes: ({
                            keep_data?: boolean;
                            name: string;
                            /** @description MB (MiB, Fuel's unit) */
                            size: number;
                            type?: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    })[];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putNodesByIdDisks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    exclude?: boolean;
                    id: string;
                    volumes: {
                        keep_data?: boolean;
                        name: string;
                        size: number;
                    }[];
                }[];
            };
        };
        responses: {
            /** @description the layout saved, and its warnings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        disks: ({
                            /** @description the whole disk, MB (MiB) */
                            disk_size?: number;
                            /** @description the operator keeps Hearth off this free disk */
                            exclude?: boolean;
                            /** @description holds /: the operating system's volumes are checked against it */
                            holds_root?: boolean;
                            /** @description stable id: the disk/by-path (or by-id) link, else the device name */
                            id: string;
                            /** @description holds something (a filesystem, /, swap, a partition table, a signature): Hearth leaves it as it is */
                            in_use: boolean;
                            /** @description device name (sda, vdb, loop3) */
                            name: string;
                            /** @description MB the volumes may take on this disk (MiB) */
                            size: number;
                            volumes: ({
                                keep_data?: boolean;
                                name: string;
                                /** @description MB (MiB, Fuel's unit) */
                                size: number;
                                type?: string;
                            } & {
                                [key: string]: unknown;
                            })[];
                        } & {
                            [key: string]: unknown;
                        })[];
                        findings: components["schemas"]["Finding"][];
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteNodesByIdDisks: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description back to the defaults */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNodesByIdDisksCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the layout's findings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description where a saved layout no longer fits (after a role change) and volumes below their minimum: a deployment refuses the node until they are fixed */
                        findings: components["schemas"]["Finding"][];
                        /** @description the operator saved a layout (false: the defaults, which follow the roles) */
                        saved: boolean;
                        /** Format: date-time */
                        saved_at: string | null;
                    };
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNodesByIdDisksDefaults: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its disks with the default volumes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        /** @description the whole disk, MB (MiB) */
                        disk_size?: number;
                        /** @description the operator keeps Hearth off this free disk */
                        exclude?: boolean;
                        /** @description holds /: the operating system's volumes are checked against it */
                        holds_root?: boolean;
                        /** @description stable id: the disk/by-path (or by-id) link, else the device name */
                        id: string;
                        /** @description holds something (a filesystem, /, swap, a partition table, a signature): Hearth leaves it as it is */
                        in_use: boolean;
                        /** @description device name (sda, vdb, loop3) */
                        name: string;
                        /** @description MB the volumes may take on this disk (MiB) */
                        size: number;
                        volumes: ({
                            keep_data?: boolean;
                            name: string;
                            /** @description MB (MiB, Fuel's unit) */
                            size: number;
                            type?: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    })[];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNodesByIdInterfaces: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its interfaces */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NodeInterface"][];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putNodesByIdInterfaces: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": ({
                    assigned_networks: (({
                        id?: number;
                        name?: string;
                    } & {
                        [key: string]: unknown;
                    }) | unknown | unknown)[];
                    name: string;
                } & {
                    [key: string]: unknown;
                })[];
            };
        };
        responses: {
            /** @description its interfaces as saved */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NodeInterface"][];
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postNodesByIdRefresh: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    accept_host_key?: string;
                };
            };
        };
        responses: {
            /** @description the node with its facts gathered again */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Node"];
                };
            };
            /** @description the credential is good but its role is too low, or a session's change lacks its CSRF token or came from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the node could not be reached or identified */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getNodesByIdVolumes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description its volumes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        /** @enum {string} */
                        allocate_size?: "min" | "all" | "full-disk";
                        /** @description laid out on free disks (false: an operating-system volume, only checked against the disk holding /) */
                        applied?: boolean;
                        file_system?: string;
                        label: string;
                        /** @description MB (MiB, Fuel's unit) */
                        min_size: number;
                        mount?: string;
                        name: string;
                        /** @description vg (an LVM volume group), partition or raid */
                        type?: string;
                        /** @description a volume group's logical volumes (size null: what is left) */
                        volumes?: ({
                            file_system?: string;
                            mount?: string;
                            name: string;
                            size: number | null;
                        } & {
                            [key: string]: unknown;
                        })[];
                    } & {
                        [key: string]: unknown;
                    })[];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPlugins: {
        parameters: {
            query?: {
                limit?: number;
                marker?: string;
                name?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description installed plugins */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plugin"][];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPlugins: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/gzip": string;
                "application/octet-stream": string;
                "application/x-rpm": string;
            };
        };
        responses: {
            /** @description installed, with what validation found */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginInstalled"];
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body's media type is not accepted */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPluginsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the plugin, with the releases it fits and the environments enabling it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginDetail"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deletePluginsById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description uninstalled */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPluginsByIdSync: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description read again, with what validation found */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginInstalled"];
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postPluginsFolders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    path: string;
                };
            };
        };
        responses: {
            /** @description registered, with what validation found */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginInstalled"];
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReleases: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description every release */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Release"][];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReleasesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the release */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReleaseDetail"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteReleasesById: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description error */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description error */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReleasesByIdComponents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description release and plugin components; those of plugins that cannot be used with it are marked usable: false, with reasons */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Component"][];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReleasesByIdComponentsState: {
        parameters: {
            query?: {
                pane?: "compute" | "network" | "storage" | "additional";
                select?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the state of every component */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WizardState"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReleasesByIdFindings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description findings, and the plugins composed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        findings: components["schemas"]["Finding"][];
                        /** @description the plugins composed with it */
                        plugins: {
                            [key: string]: unknown;
                        }[];
                    };
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReleasesByIdGraphsByType: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                type: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the graph */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        metadata: {
                            [key: string]: unknown;
                        };
                        name: string | null;
                        /** @description the tasks as composition normalised them */
                        tasks: ({
                            id: string;
                            type: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        type: string;
                    };
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReleasesByIdRoles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description roles, by weight */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Role"][];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postReleasesByIdRoles: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    meta: {
                        conflicts?: string[] | string;
                        description: string;
                        group?: string;
                        has_primary?: boolean;
                        limits?: {
                            condition?: string;
                            max?: string | number;
                            min?: string | number;
                            overrides?: {
                                condition: string;
                                max?: string | number;
                                message?: string;
                                min?: string | number;
                                recommended?: string | number;
                            }[];
                            recommended?: string | number;
                        };
                        /** @description the label shown */
                        name: string;
                        public_ip_required?: boolean;
                        restrictions?: unknown[];
                        tags: string[];
                        update_once?: string[];
                        update_required?: string[];
                        weight?: number;
                    };
                    name: string;
                    volumes_roles_mapping: {
                        /** @enum {string} */
                        allocate_size: "all" | "min" | "full-disk";
                        id: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description added */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: {
                            [key: string]: unknown;
                        };
                        name: string;
                        volumes_roles_mapping: {
                            /** @enum {string} */
                            allocate_size: "all" | "min" | "full-disk";
                            id: string;
                        }[];
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReleasesByIdRolesByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the role */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: {
                            [key: string]: unknown;
                        };
                        name: string;
                        volumes_roles_mapping: {
                            allocate_size?: string;
                            id: string;
                        }[];
                    };
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putReleasesByIdRolesByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    meta: {
                        conflicts?: string[] | string;
                        description: string;
                        group?: string;
                        has_primary?: boolean;
                        limits?: {
                            condition?: string;
                            max?: string | number;
                            min?: string | number;
                            overrides?: {
                                condition: string;
                                max?: string | number;
                                message?: string;
                                min?: string | number;
                                recommended?: string | number;
                            }[];
                            recommended?: string | number;
                        };
                        /** @description the label shown */
                        name: string;
                        public_ip_required?: boolean;
                        restrictions?: unknown[];
                        tags: string[];
                        update_once?: string[];
                        update_required?: string[];
                        weight?: number;
                    };
                    name?: string;
                    volumes_roles_mapping: {
                        /** @enum {string} */
                        allocate_size: "all" | "min" | "full-disk";
                        id: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description changed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        meta: {
                            [key: string]: unknown;
                        };
                        name: string;
                        volumes_roles_mapping: {
                            /** @enum {string} */
                            allocate_size: "all" | "min" | "full-disk";
                            id: string;
                        }[];
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteReleasesByIdRolesByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description who is asking */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description when via is session: the CSRF token its changes send */
                        csrf_token?: string;
                        /**
                         * @description viewer: reads; operator: environments, nodes, settings, deploy, stop, graphs; admin: everything
                         * @enum {string}
                         */
                        role: "viewer" | "operator" | "admin";
                        /** @description the personal token used, when via is token */
                        token_name?: string;
                        /** @description the user's name; admin-token for the built-in admin */
                        user: string;
                        /** @enum {string} */
                        via: "admin-token" | "session" | "token";
                    };
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description signed in; the cookie is set */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description send it as X-CSRF-Token with every change this session makes */
                        csrf_token: string;
                        /**
                         * Format: date-time
                         * @description the absolute end of the session (it also ends after a while unused)
                         */
                        expires_at: string;
                        /**
                         * @description viewer: reads; operator: environments, nodes, settings, deploy, stop, graphs; admin: everything
                         * @enum {string}
                         */
                        role: "viewer" | "operator" | "admin";
                        user: string;
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many at once from this client (open event streams), or too many failed sign-ins: wait and try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSession: {
        parameters: {
            query?: {
                everywhere?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description signed out; the cookie is cleared */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the credential is good but its role is too low, or a session's change lacks its CSRF token or came from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSessionPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description changed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too many at once from this client (open event streams), or too many failed sign-ins: wait and try again */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSshKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the key */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        fingerprint: string;
                        /** @description one authorized_keys line */
                        public_key: string;
                        type: string;
                    };
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTemplatesCapabilities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    environments?: string[];
                    files?: {
                        [key: string]: string;
                    };
                    paths?: string[];
                    root?: string;
                };
            };
        };
        responses: {
            /** @description the capability summary */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        findings: components["schemas"]["Finding"][];
                        /** @description with environments: each type they map to a list of candidates */
                        lists?: {
                            [key: string]: string[];
                        };
                        /** @description with environments: each requires key they ask for, with its values */
                        requires?: {
                            [key: string]: string[];
                        };
                        /** @description every capability key but resource_type: its values */
                        tags: {
                            [key: string]: string[];
                        };
                        /** @description every resource type declared: the templates that declare it */
                        types: {
                            [key: string]: string[];
                        };
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTemplatesFind: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    constraints?: {
                        [key: string]: unknown;
                    };
                    files?: {
                        [key: string]: string;
                    };
                    paths?: string[];
                    recursive?: boolean;
                    requirements?: {
                        [key: string]: unknown;
                    };
                    root?: string;
                };
            };
        };
        responses: {
            /** @description the templates that meet the constraints */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        findings: components["schemas"]["Finding"][];
                        templates: string[];
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTemplatesResolve: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    environment?: string;
                    environments?: string[];
                    files?: {
                        [key: string]: string;
                    };
                    root?: string;
                };
            };
        };
        responses: {
            /** @description the template chosen per resource type */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        errors: {
                            [key: string]: unknown;
                        }[];
                        findings: components["schemas"]["Finding"][];
                        /** @description resource type → the template chosen */
                        resolved: {
                            [key: string]: string;
                        };
                        /** @description per-resource overrides: resource → type → template */
                        resources: {
                            [key: string]: {
                                [key: string]: string;
                            };
                        };
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the body is too large */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the token is the admin token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        admin: true;
                    };
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTokens: {
        parameters: {
            query?: {
                user?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the tokens not revoked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        expires_at: string | null;
                        /**
                         * Format: date-time
                         * @description to the minute
                         */
                        last_used_at: string | null;
                        name: string;
                        /**
                         * @description the role it acts with (never more than its owner has at the moment of use)
                         * @enum {string}
                         */
                        role: "viewer" | "operator" | "admin";
                        /** @description its owner */
                        user: string;
                    }[];
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the credential is good but its role is too low, or a session's change lacks its CSRF token or came from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description seconds until it stops working (none: it lasts until revoked) */
                    expires_in?: number;
                    name: string;
                    /**
                     * @description viewer: reads; operator: environments, nodes, settings, deploy, stop, graphs; admin: everything
                     * @enum {string}
                     */
                    role?: "viewer" | "operator" | "admin";
                    /** @description an admin may make a token for another user (the admin token must name one) */
                    user?: string;
                };
            };
        };
        responses: {
            /** @description the token, with its secret shown this once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        expires_at: string | null;
                        /**
                         * Format: date-time
                         * @description to the minute
                         */
                        last_used_at: string | null;
                        name: string;
                        /**
                         * @description the role it acts with (never more than its owner has at the moment of use)
                         * @enum {string}
                         */
                        role: "viewer" | "operator" | "admin";
                        /** @description the token itself: shown this once, stored only as a digest */
                        token: string;
                        /** @description its owner */
                        user: string;
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the credential is good but its role is too low, or a session's change lacks its CSRF token or came from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteTokensByName: {
        parameters: {
            query?: {
                user?: string;
            };
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the credential is good but its role is too low, or a session's change lacks its CSRF token or came from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description every user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        disabled: boolean;
                        name: string;
                        /**
                         * @description viewer: reads; operator: environments, nodes, settings, deploy, stop, graphs; admin: everything
                         * @enum {string}
                         */
                        role: "viewer" | "operator" | "admin";
                    }[];
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the credential is good but its role is too low, or a session's change lacks its CSRF token or came from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    postUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    password: string;
                    /**
                     * @description viewer: reads; operator: environments, nodes, settings, deploy, stop, graphs; admin: everything
                     * @enum {string}
                     */
                    role: "viewer" | "operator" | "admin";
                };
            };
        };
        responses: {
            /** @description the user */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        disabled: boolean;
                        name: string;
                        /**
                         * @description viewer: reads; operator: environments, nodes, settings, deploy, stop, graphs; admin: everything
                         * @enum {string}
                         */
                        role: "viewer" | "operator" | "admin";
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the credential is good but its role is too low, or a session's change lacks its CSRF token or came from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the resource's state does not allow it now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteUsersByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the credential is good but its role is too low, or a session's change lacks its CSRF token or came from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    patchUsersByName: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    disabled?: boolean;
                    password?: string;
                    /**
                     * @description viewer: reads; operator: environments, nodes, settings, deploy, stop, graphs; admin: everything
                     * @enum {string}
                     */
                    role?: "viewer" | "operator" | "admin";
                };
            };
        };
        responses: {
            /** @description the user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        disabled: boolean;
                        name: string;
                        /**
                         * @description viewer: reads; operator: environments, nodes, settings, deploy, stop, graphs; admin: everything
                         * @enum {string}
                         */
                        role: "viewer" | "operator" | "admin";
                    };
                };
            };
            /** @description the request is malformed or refused by the domain's rules (details say which) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no credential, or a wrong, expired or revoked one (the admin token, a personal token or a session) */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description the credential is good but its role is too low, or a session's change lacks its CSRF token or came from another origin */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getVersion: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Hearth's version and the database engine */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        engine: "pglite" | "postgres";
                        version: string;
                    };
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealthcheck: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ready to serve */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": "OK";
                };
            };
            /** @description not ready: the reason, in words */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealthz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the process answers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPluginsByFolderRepositories: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                "*": string;
                folder: string;
                /** @description a path inside the folder */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getReadyz: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ready to serve */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        engine: "pglite" | "postgres";
                        schema: number;
                        /** @constant */
                        status: "ready";
                    };
                };
            };
            /** @description the server cannot do this now (no SSH key, the database does not answer, or too slow) */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSchemas: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the schemas served */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                        url: string;
                    }[];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSchemasByFile: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a JSON Schema (draft-07) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/schema+json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description no such resource */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description an error: {code, message, details} */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
