/**
 * The scripts of the release plugin skeleton (its deployment_scripts/): small, real and safe to
 * run, so that a release made by `hearth plugin create --release-plugin` deploys for real from the
 * start and shows the moving parts an author replaces: the node's deployment data, the release's
 * scripts folder as the working folder, a compute configured from what the deployment says about
 * its controllers, and a log of what ran in what order.
 *
 * Nodes get these files in /etc/hearth/plugins/<name>-<version>/ and run them from there.
 */
import type { SkeletonFile } from './templates.js';

const script = (text: string): SkeletonFile => ({ text, executable: true });

// Read by every other script: where the release keeps its files on the node, and two helpers.
const COMMON = (name: string): string => `# Shared by the release's scripts (each one sources it: ". ./common.sh").
# Tasks run in this release's scripts folder on the node, /etc/hearth/plugins/<name>-<version>/,
# and the node's deployment data is in /etc/hearth/deployment.yaml (also /etc/astute.yaml).

# Under a folder of their own, whatever the release is called: erase.sh removes them whole.
CONFIG_DIR=/etc/hearth-release/${name}
LOG_DIR=/var/log/hearth-release/${name}
DEPLOYMENT_DATA=/etc/hearth/deployment.yaml

# record TASK EVENT: one line per event in $LOG_DIR/tasks.log, "<seconds since 1970> <task> <event>",
# so an operator (and the skeleton's tests) can see what ran on the node and in what order.
record() {
  mkdir -p "$LOG_DIR"
  printf '%s %s %s\\n' "$(date +%s.%N)" "$1" "$2" >> "$LOG_DIR/tasks.log"
  echo "$1: $2"
}

# data_value KEY: a top-level scalar of the deployment data (uid, fqdn, ip, deployment_id, ...).
data_value() {
  sed -n "s/^$1: *//p" "$DEPLOYMENT_DATA" | head -n 1 | sed "s/^[\\"']//; s/[\\"']$//"
}

fail() {
  echo "$*" >&2
  exit 1
}
`;

const CONTROLLER = (name: string): string => `#!/bin/bash
# Task controller-services: configure a controller. Replace the body with the release's own
# steps (packages from the release's repository, configuration files, services).
set -eu
. ./common.sh
record controller-services start
address=$(data_value ip)
[ -n "$address" ] || fail "the deployment data ($DEPLOYMENT_DATA) gives no address (ip) for this node"
mkdir -p "$CONFIG_DIR"
printf 'address=%s\\nhostname=%s\\nenvironment=%s\\n' "$address" "$(hostname)" "$(data_value deployment_id)" > "$CONFIG_DIR/controller.conf"
echo "${name} controller configured at $address"
record controller-services done
`;

const COMPUTE = (name: string): string => `#!/bin/bash
# Task compute-services: configure a compute to use the controllers. The task before it
# (compute-controllers, an upload_file) wrote their addresses, taken from the deployment data,
# to $CONFIG_DIR/controllers.json once every controller had finished controller-services.
set -eu
. ./common.sh
record compute-services start
[ -f "$CONFIG_DIR/controllers.json" ] || fail "$CONFIG_DIR/controllers.json is missing: the compute-controllers task writes it"
controllers=$(tr -d '[]" ' < "$CONFIG_DIR/controllers.json" | tr ',' ' ')
[ -n "$controllers" ] || fail "no controller in $CONFIG_DIR/controllers.json: deploy at least one controller"
printf 'controllers=%s\\nhostname=%s\\n' "$controllers" "$(hostname)" > "$CONFIG_DIR/compute.conf"
echo "${name} compute configured with controllers: $controllers"
record compute-services done
`;

const DIAGNOSTICS = `#!/bin/bash
# Task diagnostics (runs when the Debug logging setting is on): show what the deployment did here.
set -eu
. ./common.sh
record diagnostics start
echo "host: $(hostname)"
for f in "$CONFIG_DIR"/*; do [ -f "$f" ] && { echo "== $f"; cat "$f"; }; done
[ -f "$LOG_DIR/tasks.log" ] && { echo "== $LOG_DIR/tasks.log"; cat "$LOG_DIR/tasks.log"; }
record diagnostics done
`;

const PROVISION = `#!/bin/bash
# Task provision (graph provisioning): Hearth deploys onto hosts whose operating system is
# installed; prepare new nodes here (packages, users, kernel settings) before the deployment.
set -eu
. ./common.sh
record provision start
. /etc/os-release 2>/dev/null && echo "operating system: \${PRETTY_NAME:-unknown}"
mkdir -p "$CONFIG_DIR"
record provision done
`;

const ERASE = `#!/bin/bash
# Task erase (graph deletion): remove what the release's tasks wrote on this node.
set -eu
. ./common.sh
rm -rf -- "$CONFIG_DIR" "$LOG_DIR"
echo "removed $CONFIG_DIR and $LOG_DIR"
`;

const VERIFY_NETWORKS = `#!/bin/bash
# Task verify-networks (graph network_verification): check the node holds the address the
# deployment knows it by. Add checks between nodes here (VLANs, MTU, reachability).
set -eu
. ./common.sh
address=$(data_value ip)
[ -n "$address" ] || fail "the deployment data gives no address (ip) for this node"
if command -v ip >/dev/null 2>&1; then
  ip -o addr show | grep -qF " $address/" || fail "no interface of $(hostname) has address $address"
fi
echo "$(hostname) has $address"
`;

/** deployment_scripts/ of the release skeleton, by file name. */
export function releaseScripts(name: string): Map<string, SkeletonFile> {
  return new Map([
    ['common.sh', { text: COMMON(name) }],
    ['controller.sh', script(CONTROLLER(name))],
    ['compute.sh', script(COMPUTE(name))],
    ['diagnostics.sh', script(DIAGNOSTICS)],
    ['provision.sh', script(PROVISION)],
    ['erase.sh', script(ERASE)],
    ['verify_networks.sh', script(VERIFY_NETWORKS)],
  ]);
}
