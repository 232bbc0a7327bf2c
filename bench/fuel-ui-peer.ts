/**
 * Fuel UI's own wizard logic, run beside Hearth's engine (bench/wizard.bench.ts): the component
 * models of `static/models.js` (ComponentPattern, ComponentModel, ComponentsCollection) and the pane
 * algorithms of `static/views/wizard.js` (ClusterWizardPanesMixin, Compute, Network, Storage,
 * AdditionalServices), unmodified, with the libraries Fuel UI pinned (lodash 4.13.1, standing in
 * for underscore as Fuel's webpack alias did, and Backbone 1.3.3). Fuel's code is Apache-2.0 but is
 * not part of Hearth: it is read at bench time from a fuel-ui checkout named by HEARTH_FUEL_UI
 * (openstack-archive/fuel-ui at the parent of "Retire repository"), and the two libraries are
 * installed beside it with npm when missing. Without it the Fuel column is skipped.
 *
 * Only the views' React shells are stubbed (createClass returns the spec; nothing renders): every
 * model mutation in the wizard is synchronous, so the restriction passes run exactly as in a browser.
 * What the wizard component does around them (onChange, updateState, mounting a pane) is driven
 * here as CreateClusterWizard does it (research/fuel-ui.md §1.5-1.7).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { transformSync } from 'esbuild';

/** Fuel's Backbone objects, untyped. */
type Any = any;

export interface FuelWizard {
  /** Pane indexes of the wizard: 1 Compute, 2 Network, 3 Storage, 4 Additional Services. */
  enter(pane: number): void;
  /** The click a user makes on a control of the current pane (a radio calls onChange per option). */
  click(name: string): void;
  /** The choices a user would click on the current pane: per group, the first one not disabled and not chosen. */
  picks(): Array<{ group: string; name: string; radio: string[] | null }>;
  enabled(): string[];
}

export interface FuelUi {
  /** Construct the collection and run expandWildcards, restoreDefaultValue, preprocessRequires. */
  open(components: unknown[]): FuelWizard;
  source: string;
}

/** Load Fuel UI's logic, or say why it cannot be. */
export function loadFuelUi(): FuelUi | string {
  const dir = process.env.HEARTH_FUEL_UI;
  if (!dir) return 'HEARTH_FUEL_UI is not set (a checkout of openstack-archive/fuel-ui, at HEAD~1 of its "Retire repository" commit): Fuel column skipped';
  const modelsFile = join(dir, 'static', 'models.js');
  const wizardFile = join(dir, 'static', 'views', 'wizard.js');
  if (!existsSync(modelsFile) || !existsSync(wizardFile)) return `${dir} has no static/models.js and static/views/wizard.js: Fuel column skipped`;
  if (!existsSync(join(dir, 'node_modules', 'lodash')) || !existsSync(join(dir, 'node_modules', 'backbone'))) {
    try {
      execFileSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', '--prefix', dir, 'lodash@4.13.1', 'backbone@1.3.3'], { stdio: 'ignore', timeout: 120_000 });
    } catch (e) {
      return `npm could not install lodash@4.13.1 and backbone@1.3.3 into ${dir} (${(e as Error).message.split('\n')[0]}): Fuel column skipped`;
    }
  }
  const req = createRequire(join(dir, 'package.json'));
  const _ = req('lodash');
  if (_.VERSION !== '4.13.1') return `${dir}/node_modules/lodash is ${_.VERSION}, not the 4.13.1 Fuel UI pinned: Fuel column skipped`;
  // Backbone's CommonJS branch requires 'underscore': Fuel UI's webpack aliased it to lodash.
  const backboneFile = req.resolve('backbone');
  const backboneModule = { exports: {} as Any };
  new Function('module', 'exports', 'require', readFileSync(backboneFile, 'utf8'))(backboneModule, backboneModule.exports, (name: string) => {
    if (name === 'underscore') return _;
    throw new Error(`no ${name} here`);
  });
  const Backbone = backboneModule.exports;

  const modelsSource = readFileSync(modelsFile, 'utf8');
  const wizardSource = readFileSync(wizardFile, 'utf8');
  const models = between(modelsSource, 'var superMixin = models.superMixin', 'var cacheMixin') + between(modelsSource, 'class ComponentPattern', 'export default models');
  const panes = between(wizardSource, 'var ClusterWizardPanesMixin', 'var Finish');
  const wrapped = `var fuel = (() => {\n${models}\n${panes}\nreturn {Compute, Network, Storage, AdditionalServices};\n})();`;
  const code = `${transformSync(wrapped, { loader: 'jsx' }).code}\nreturn fuel;`;
  const i18n = (key: string) => key;
  const React = { createClass: (spec: Any) => spec, createElement: () => null };
  const models_: Any = {};
  const classes = new Function('_', 'Backbone', 'i18n', 'React', 'ReactDOM', '$', 'models', code)(_, Backbone, i18n, React, {}, () => ({ find: () => ({ first: () => ({ focus() {} }) }) }), models_);
  const paneClasses = [null, classes.Compute, classes.Network, classes.Storage, classes.AdditionalServices];
  return { open: (components) => new Wizard(models_, paneClasses, components), source: dir };
}

function between(text: string, start: string, end: string): string {
  const a = text.indexOf(start);
  const b = text.indexOf(end, a);
  if (a < 0 || b < 0) throw new Error(`Fuel UI source changed: "${start}" … "${end}" not found`);
  return text.slice(a, b);
}

/** CreateClusterWizard's state handling around the panes (views/wizard.js), without React. */
class Wizard implements FuelWizard {
  private active = 0;
  private maxAvailable = 0;
  private pane: Any = null;
  private readonly model: Any;
  private readonly components: Any;

  constructor(
    models: Any,
    private readonly classes: Any[],
    json: unknown[],
  ) {
    this.components = new models.ComponentsCollection(json, { releaseId: 1 });
    this.components.invokeMap('expandWildcards', this.components);
    this.components.invokeMap('restoreDefaultValue', this.components);
    this.components.invokeMap('preprocessRequires', this.components);
    this.model = new models.BaseModel();
    this.model.set({ components: this.components });
  }

  /** nextPane/goToPane: updateState (the left pane's pass, the next pane's hasErrors), then the next pane mounts. */
  enter(index: number): void {
    this.updateState();
    const spec = this.classes[index];
    const statics = { ...spec.mixins[0].statics, ...spec.statics };
    statics.hasErrors(this.model);
    this.active = index;
    this.maxAvailable = Math.max(this.maxAvailable, index);
    const pane: Any = { props: { allComponents: this.components, wizard: this.model, onChange: (n: string, v: boolean) => this.onChange(n, v) }, constructor: statics };
    for (const [k, v] of Object.entries({ ...spec.mixins[0], ...spec })) if (typeof v === 'function') pane[k] = v.bind(pane);
    spec.mixins[0].componentWillMount.call(pane);
    spec.componentWillMount.call(pane);
    this.pane = pane;
  }

  click(name: string): void {
    const radio = this.radioOf(name);
    if (!radio) return this.paneOnChange(name, !this.components.get(name).get('enabled'));
    // ComponentRadioGroup.onChange: every option in weight order, each a full pass.
    for (const id of radio) this.paneOnChange(id, id === name);
  }

  picks(): Array<{ group: string; name: string; radio: string[] | null }> {
    const out: Array<{ group: string; name: string; radio: string[] | null }> = [];
    for (const [group, members] of this.groups()) {
      const pick = members.find((c: Any) => !c.get('disabled') && !c.get('enabled'));
      if (pick) out.push({ group, name: pick.id, radio: this.radioOf(pick.id) });
    }
    return out;
  }

  enabled(): string[] {
    return this.components.toJSON();
  }

  private groups(): Array<[string, Any[]]> {
    const p = this.pane;
    if (p.monolithic !== undefined) return [['network:core', p.monolithic ?? []], ['network:ml2', p.ml2 ?? []]];
    if (p.constructor.componentType === 'storage') return ['block', 'object', 'image', 'ephemeral'].map((s) => [`storage:${s}`, p.components.filter((c: Any) => c.get('subtype') === s)]);
    return [[p.constructor.componentType, p.components]];
  }

  private radioOf(name: string): string[] | null {
    const p = this.pane;
    if (p.monolithic?.some((c: Any) => c.id === name)) return p.monolithic.map((c: Any) => c.id);
    if (p.constructor.componentType !== 'storage') return null;
    const section = p.components.filter((c: Any) => c.get('subtype') === this.components.get(name).get('subtype'));
    return p.areComponentsMutuallyExclusive(section) ? section.map((c: Any) => c.id) : null;
  }

  /** The Network pane wraps onChange (ML2 drivers reset); the others pass the wizard's. */
  private paneOnChange(name: string, value: boolean): void {
    if (this.pane.monolithic?.some((c: Any) => c.id === name)) this.pane.onChange(name, value);
    else this.onChange(name, value);
  }

  /** CreateClusterWizard.onChange's default branch. */
  private onChange(name: string, value: boolean): void {
    const types: string[] = [];
    for (let i = this.active + 1; i <= this.maxAvailable; i++) if (this.classes[i]) types.push(this.classes[i].statics.componentType);
    if (types.length > 0) this.components.restoreDefaultValues(types);
    this.components.get(name).set({ enabled: value });
    this.maxAvailable = this.active;
    this.updateState();
    const statics = { ...this.classes[this.active].mixins[0].statics, ...this.classes[this.active].statics };
    statics.hasErrors(this.model);
  }

  private updateState(): void {
    this.pane?.updateRestrictions?.();
  }
}
