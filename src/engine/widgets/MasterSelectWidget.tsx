import type { WidgetProps } from '@rjsf/utils';
import messages from '../../../messages/ja.json';
import { engineContext, errorAria } from '../form-context';

/** A select whose options come from a master list ("ui:options": { "master": "job" }). */
export default function MasterSelectWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, options, registry, required, rawErrors }: WidgetProps) {
  const list = engineContext(registry.formContext)?.masters[String(options.master)] ?? [];
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
