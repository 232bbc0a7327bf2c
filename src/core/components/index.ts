/**
 * The component registry engine: compile a catalog once, then ask it questions.
 * `validate` checks a final selection; `state` is the wizard after each click; `complete` finds
 * the smallest valid completion; `analyse` warns plugin authors about rules that cannot work.
 */
export { compileCatalog, incompatibilityBetween } from './catalog.js';
export type { Catalog, CompiledComponent, CompileOptions, Constraint, ConstraintKind } from './catalog.js';
export { COMPONENT_TYPES, GROUPS, RADIO_GROUPS, WIZARD_PANES, groupOf, matches, parsePattern, typeOf, wizardPaneOf } from './names.js';
export type { ComponentGroup, ComponentType, WizardPane } from './names.js';
export { validate, resolveSelection } from './validate.js';
export type { ComponentFinding, Validation } from './validate.js';
export { state } from './state.js';
export type { ComponentState, StateOptions, WizardState } from './state.js';
export { complete } from './complete.js';
export type { Completion } from './complete.js';
export { analyse } from './analyse.js';
