import type { WidgetProps } from '@rjsf/utils';
import messages from '../../../messages/ja.json';
import { engineContext, errorAria, masterName, requiredInName, type MasterOption } from '../form-context';

/** Items of one master list in groups of equal `key` (e.g. municipalities by prefecture), in
 *  the list's order. */
function groups(list: MasterOption[], key: string): Array<[string, MasterOption[]]> {
  const out = new Map<string, MasterOption[]>();
  for (const option of list) {
    const name = String((option as unknown as Record<string, unknown>)[key] ?? '');
    out.set(name, [...(out.get(name) ?? []), option]);
  }
  return [...out];
}

const optionsOf = (list: MasterOption[]) =>
  list.map((option) => (
    <option key={option.value} value={option.value}>
      {option.label}
    </option>
  ));

/** A select whose options come from a master list (the list its schema names in `x-master`);
 *  with "ui:options": { "groupBy": "prefecture" } the options are grouped under that property
 *  of each item. */
export default function MasterSelectWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, schema, options, registry, required, hideLabel } = props;
  const list = engineContext(registry.formContext)?.masters[masterName(schema)] ?? [];
  const groupBy = typeof options.groupBy === 'string' ? options.groupBy : undefined;
  return (
    <select
      id={id}
      className="input"
      value={value ?? ''}
      disabled={disabled || readonly}
      // The native attribute is what Chromium exposes as required (aria-required on a select is
      // not); the form has noValidate, so the browser's own bubbles never show.
      required={required}
      aria-required={required || undefined}
      aria-labelledby={requiredInName({ id, required, readonly, hideLabel })}
      {...errorAria(props)}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    >
      <option value="">{messages.form.choose}</option>
      {groupBy
        ? groups(list, groupBy).map(([name, items]) => (
            <optgroup key={name} label={name}>
              {optionsOf(items)}
            </optgroup>
          ))
        : optionsOf(list)}
    </select>
  );
}
