/**
 * Plausible Fuel deployment data (the per-node `$` of a task condition): a controller and a compute
 * of a three-node cluster, with the keys the corpus conditions read.
 */
const node = (uid: string, roles: string[]) => ({
  uid,
  fqdn: `node-${uid}.test.domain.local`,
  name: `node-${uid}`,
  user_node_name: `Untitled (${uid})`,
  node_roles: roles,
  network_roles: { 'mgmt/messaging': `192.168.0.${uid}`, 'mgmt/database': `192.168.0.${uid}`, 'cinder/iscsi': `192.168.1.${uid}`, management: `192.168.0.${uid}` },
});

const common = {
  deployment_id: 7,
  deployment_mode: 'ha_compact',
  master_ip: '10.20.0.2',
  debug: false,
  verbose: true,
  use_syslog: true,
  use_stderr: false,
  plugins: [],
  mu_upgrade: { enabled: false, repos: 'mos' },
  repo_setup: { repo_type: 'fuel', repos: [] },
  storage: { objects_ceph: false, images_ceph: false, volumes_ceph: false, ephemeral_ceph: false, images_vcenter: false, volumes_lvm: true },
  ironic: { enabled: false },
  murano: { enabled: false },
  sahara: { enabled: false },
  heat: { enabled: true },
  ceilometer: { enabled: false },
  use_vcenter: false,
  contrail: { enable_tor_agents: false },
  opendaylight: { enable_sfc: false, enable_l3_odl: false },
  neutron_advanced_configuration: { neutron_l3_ha: false, neutron_dvr: false },
  public_ssl: { horizon: true, services: true, cert_source: 'self_signed', hostname: 'public.fuel.local', cert_data: {} },
  deployed_before: { value: false },
  provision: { name: 'ubuntu', packages: 'a\nb', method: 'image' },
  'detach-murano': { metadata: { enabled: false, plugin_version: '1.0' } },
  'murano-cfapi': { enabled: false },
  keystone: { service_token_off: false },
  network_metadata: {
    nodes: { 'node-1': node('1', ['primary-controller']), 'node-2': node('2', ['compute']), 'node-3': node('3', ['controller', 'mongo']) },
    vips: { management: { ipaddr: '192.168.0.2', node_roles: ['controller', 'primary-controller'] }, public: { ipaddr: '172.16.0.2' }, vrouter: { ipaddr: '192.168.0.3', node_roles: ['controller'] } },
  },
  status: 'ready',
  // Legacy (Fuel 8) list of nodes, still read by a few tasks.
  nodes: [
    { uid: '1', fqdn: 'node-1.test.domain.local', role: 'primary-controller' },
    { uid: '2', fqdn: 'node-2.test.domain.local', role: 'compute' },
  ],
  configuration: { haproxy: {}, mysql: {} },
  syslog: { debug: false },
  access: { user: 'admin', tenant: 'admin' },
  quantum: true,
  quantum_settings: { keystone: { admin_password: 'x' }, L2: { segmentation_type: 'vlan' } },
  murano_settings: { murano_glance_artifacts_plugin: false },
  node_volumes: [{ id: 'os', size: 10 }],
  external_ntp: { ntp_list: ['0.pool.ntp.org'] },
  external_dns: { dns_list: ['8.8.8.8'] },
  cgroups: {},
  vms_conf: [],
  limits: {},
};

// Service sections the conditions read whole; their contents matter little, their presence does.
for (const section of ['aodh', 'cinder', 'cinder_netapp', 'glance', 'horizon', 'mongo', 'mysql', 'nova', 'nova_quota', 'rabbit', 'swift', 'test_vm_image', 'workloads_collector', 'ceph_tuning_settings', 'base_syslog', 'puppet']) {
  (common as Record<string, unknown>)[section] = { enabled: section !== 'mongo', user: section };
}

export function deploymentData(): Array<Record<string, unknown>> {
  return [
    { ...common, uid: '1', roles: ['primary-controller'], fqdn: 'node-1.test.domain.local', network_scheme: { endpoints: { 'br-mgmt': { IP: ['192.168.0.1/24'], gateway: '192.168.0.254' }, 'br-ex': { IP: 'none' } } } },
    { ...common, uid: '2', roles: ['compute', 'dpdk'], fqdn: 'node-2.test.domain.local', status: 'provisioned', plugins: [{ name: 'x' }], network_scheme: { endpoints: {} } },
  ];
}
