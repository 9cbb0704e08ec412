import type { WidgetProps } from '@rjsf/utils';
import { engineContext, errorAria, masterName } from '../form-context';

/** Radio buttons whose options come from a master list (the list its schema names in `x-master`). */
export default function MasterRadioWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, schema, registry, label } = props;
  const list = engineContext(registry.formContext)?.masters[masterName(schema)] ?? [];
  return (
    <div className="choices choices--inline" role="radiogroup" aria-label={label} id={id} {...errorAria(props)}>
      {list.map((option, index) => (
        <label key={option.value} className="choice">
          <input
            type="radio"
            id={`${id}-${index}`}
            name={id}
            value={option.value}
            checked={value === option.value}
            disabled={disabled || readonly}
            onChange={() => onChange(option.value)}
            onBlur={() => onBlur(id, value)}
            onFocus={() => onFocus(id, value)}
          />
          {option.label}
        </label>
      ))}
    </div>
  );
}
