import type { Plugin } from '../types.js';

/** `GET /plugins/{id}`: what the Plugins page shows of one version. */
export interface PluginDetail extends Plugin {
  description?: string | null;
  roles?: Array<{ name: string; label?: string }>;
  components?: Array<{ name: string; label?: string | null }>;
  tasks?: Record<string, unknown[]>;
  release_fits?: Array<{ release_id: string; release: string; fits: boolean; reasons: string[] }>;
  used_by?: Array<{ id: number; name: string }>;
  install_findings?: Array<{ code: string; severity: string; message: string }>;
  /** What validating it against each installed release it declares adds (issue 18, class 5). */
  release_findings?: ReleaseValidation[];
}

export interface ReleaseFinding {
  code: string;
  severity: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  hint?: string;
}

export interface ReleaseValidation {
  release_id: string;
  /** `<name> <version>` */
  release: string;
  findings: ReleaseFinding[];
}
