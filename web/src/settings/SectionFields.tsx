import { fieldsOf, verdictOf, type Section } from './model.js';
import { SettingField } from './SettingField.js';

interface Props {
  name: string;
  section: Section;
  context: Record<string, unknown>;
  /** Value problems found as the user types, by `section.field`. */
  problems: Map<string, string>;
  /** The server's refusals, by `section.field` (or `section`). */
  refusals?: Map<string, string[]>;
  onValue: (section: string, field: string, value: unknown) => void;
  onEnabled: (section: string, enabled: boolean) => void;
  /** Inside a plugin's fieldset: no fieldset or legend of its own. */
  bare?: boolean;
}

/** A settings section: its restrictions hide or disable it, then each field's own restrictions apply. */
export function SectionFields({ name, section, context, problems, refusals, onValue, onEnabled, bare }: Props) {
  const meta = section.metadata ?? {};
  const sectionVerdict = verdictOf(meta.restrictions, context);
  if (sectionVerdict.hidden) return null;
  const fields = fieldsOf(section)
    .filter(([, a]) => a.type !== 'hidden')
    .map(([key, attr]) => ({ key, attr, verdict: verdictOf(attr.restrictions, context) }))
    .filter((f) => !f.verdict.hidden);
  // Two visible fields with one label are told apart by their names.
  const labelCount = new Map<string, number>();
  for (const f of fields) labelCount.set(f.attr.label ?? f.key, (labelCount.get(f.attr.label ?? f.key) ?? 0) + 1);
  const off = meta.toggleable === true && meta.enabled === false;
  // A section with nothing to show (every field hidden: Provisioning's method) is not drawn as an empty box.
  if (!bare && fields.length === 0 && !meta.toggleable && sectionVerdict.messages.length === 0 && !(refusals?.get(name) ?? []).length) return null;
  const sectionRefusal = refusals?.get(name) ?? [];
  const body = (
    <>
      {sectionVerdict.messages.length > 0 && <p className={sectionVerdict.disabled ? 'why' : 'why note'}>{sectionVerdict.messages.join(' ')}</p>}
      {sectionRefusal.length > 0 && (
        <p className="refusal" role="alert">
          {sectionRefusal.join(' ')}
        </p>
      )}
      {!off &&
        fields.map(({ key, attr, verdict }) => {
          const label = attr.label && attr.label.trim() ? attr.label : key;
          const path = `${name}.${key}`;
          const problem = problems.get(path);
          return (
            <SettingField
              key={key}
              id={`s-${name}-${key}`.replace(/[^A-Za-z0-9_-]/g, '-')}
              attr={attr}
              label={(labelCount.get(attr.label ?? key) ?? 0) > 1 ? `${label} (${key})` : label}
              verdict={sectionVerdict.disabled ? { ...verdict, disabled: true } : verdict}
              errors={[...(problem ? [problem] : []), ...(refusals?.get(path) ?? [])]}
              onChange={(v) => onValue(name, key, v)}
            />
          );
        })}
    </>
  );
  if (bare) return body;
  return (
    <fieldset className="group" data-section={name}>
      <legend>
        {meta.toggleable ? (
          <label>
            <input type="checkbox" checked={meta.enabled !== false} disabled={sectionVerdict.disabled} onChange={(e) => onEnabled(name, e.target.checked)} /> {meta.label ?? name}
          </label>
        ) : (
          (meta.label ?? name)
        )}
      </legend>
      {body}
    </fieldset>
  );
}
