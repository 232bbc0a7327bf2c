/** Fuel 9.0's volumes metadata (fuel-web `nailgun/fixtures/openstack.yaml`, tag 9.0), for tests. */
import type { LayoutVolumesMetadata } from '../../src/core/disks/index.js';

const total = (vg: string) => ({ generator: 'calc_total_vg', generator_args: [vg] });
const lv = (vg: string, name: string, mount: string, fs = 'xfs') => ({ mount, type: 'lv', name, size: total(vg), file_system: fs });

export const FUEL_90_VOLUMES: LayoutVolumesMetadata = {
  volumes_roles_mapping: {
    controller: [
      { allocate_size: 'min', id: 'os' },
      { allocate_size: 'min', id: 'logs' },
      { allocate_size: 'all', id: 'image' },
      { allocate_size: 'min', id: 'mysql' },
      { allocate_size: 'min', id: 'horizon' },
    ],
    compute: [{ allocate_size: 'min', id: 'os' }, { allocate_size: 'all', id: 'vm' }],
    cinder: [{ allocate_size: 'min', id: 'os' }, { allocate_size: 'all', id: 'cinder' }],
    'ceph-osd': [{ allocate_size: 'min', id: 'os' }, { allocate_size: 'min', id: 'cephjournal' }, { allocate_size: 'full-disk', id: 'ceph' }],
    mongo: [{ allocate_size: 'min', id: 'os' }, { allocate_size: 'all', id: 'mongo' }],
    other: [{ allocate_size: 'all', id: 'os' }],
    'base-os': [{ allocate_size: 'min', id: 'os' }],
  },
  volumes: [
    {
      id: 'os',
      type: 'vg',
      min_size: { generator: 'calc_min_os_size' },
      label: 'Base System',
      volumes: [
        { mount: '/', type: 'lv', name: 'root', size: { generator: 'calc_total_root_vg' }, file_system: 'ext4' },
        { mount: 'swap', type: 'lv', name: 'swap', size: { generator: 'calc_swap_size' }, file_system: 'swap' },
      ],
    },
    { id: 'logs', type: 'vg', min_size: { generator: 'calc_gb_to_mb', generator_args: [10] }, label: 'Logs', volumes: [lv('logs', 'log', '/var/log', 'ext4')] },
    { id: 'mongo', type: 'vg', label: 'MongoDB', min_size: { generator: 'calc_min_mongo_size' }, volumes: [lv('mongo', 'mongodb', '/var/lib/mongo', 'ext4')] },
    { id: 'ceph', type: 'partition', min_size: { generator: 'calc_min_ceph_size' }, label: 'Ceph', name: 'Ceph', mount: 'none', partition_guid: '4fbd7e29-9d25-41b8-afd0-062c0ceff05d', file_system: 'none' },
    { id: 'cephjournal', type: 'partition', min_size: { generator: 'calc_min_ceph_journal_size' }, name: 'Ceph Journal', label: 'Ceph Journal', mount: 'none', partition_guid: '45b0969e-9b03-4f30-b4c6-b4b80ceff106', file_system: 'none' },
    { id: 'mysql', type: 'vg', min_size: { generator: 'calc_min_mysql_size' }, label: 'Mysql Database', volumes: [lv('mysql', 'root', '/var/lib/mysql', 'ext4')] },
    { id: 'vm', type: 'vg', min_size: { generator: 'calc_min_vm_size' }, label: 'Virtual Storage', volumes: [lv('vm', 'nova', '/var/lib/nova')] },
    { id: 'image', type: 'vg', min_size: { generator: 'calc_min_glance_size' }, label: 'Image Storage', volumes: [lv('image', 'glance', '/var/lib/glance')] },
    { id: 'horizon', type: 'vg', min_size: { generator: 'calc_gb_to_mb', generator_args: [11] }, label: 'Horizon Temp Storage', volumes: [lv('horizon', 'horizontmp', '/var/lib/horizon')] },
    { id: 'cinder', type: 'vg', label: 'Cinder', min_size: { generator: 'calc_min_cinder_size' }, volumes: [] },
  ],
};
