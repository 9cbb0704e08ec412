import type { WidgetProps } from '@rjsf/utils';
import { engineContext, errorAria, masterName } from '../form-context';

/** Checkboxes for an array of master codes (the list its schema names in `x-master`). The value
 *  keeps the list's order; an empty choice is `undefined`, so `required` applies. */
export default function MasterCheckboxesWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, schema, registry, label } = props;
  const list = engineContext(registry.formContext)?.masters[masterName(schema)] ?? [];
  const chosen = new Set<string>(Array.isArray(value) ? value : []);
  const toggle = (code: string) => {
    const next = new Set(chosen);
    if (next.has(code)) next.delete(code);
    else next.add(code);
    const ordered = list.map((o) => o.value).filter((v) => next.has(v));
    onChange(ordered.length ? ordered : undefined);
  };
  return (
    <div className="choices" role="group" aria-label={label} id={id} {...errorAria(props)}>
      {list.map((option, index) => (
        <label key={option.value} className="choice">
          <input
            type="checkbox"
            id={`${id}-${index}`}
            checked={chosen.has(option.value)}
            disabled={disabled || readonly}
            onChange={() => toggle(option.value)}
            onBlur={(event) => {
              if (!event.currentTarget.closest('.choices')?.contains(event.relatedTarget as Node | null)) onBlur(id, value);
            }}
            onFocus={() => onFocus(id, value)}
          />
          {option.label}
        </label>
      ))}
    </div>
  );
}
