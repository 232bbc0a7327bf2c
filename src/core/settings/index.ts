/** Settings as Fuel's attribute files define them: whether a value fits its definition. */
export { MAX_SETTING_TEXT, settingValueProblem, type SettingDefinition } from './check.js';
