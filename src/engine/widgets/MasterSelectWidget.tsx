import type { WidgetProps } from '@rjsf/utils';
import messages from '../../../messages/ja.json';
import { engineContext, errorAria, masterName } from '../form-context';

/** A select whose options come from a master list (the list its schema names in `x-master`). */
export default function MasterSelectWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, schema, registry, required, rawErrors }: WidgetProps) {
  const list = engineContext(registry.formContext)?.masters[masterName(schema)] ?? [];
  return (
    <select
      id={id}
      className="input"
      value={value ?? ''}
      disabled={disabled || readonly}
      aria-required={required || undefined}
      {...errorAria(registry.formContext, id, rawErrors)}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    >
      <option value="">{messages.form.choose}</option>
      {list.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
