import type { WidgetProps } from '@rjsf/utils';
import { schemaRequiresTrueValue } from '@rjsf/utils';
import messages from '../../../messages/ja.json';
import { errorAria } from '../form-context';

/** A single checkbox (an agreement, a confirmation). A box that must be ticked carries the same
 *  "required" badge as every other required field, not rjsf's bare "*"; its error is linked to it. */
export default function CheckboxWidget(props: WidgetProps) {
  const { id, htmlName, value, disabled, readonly, label, hideLabel, autofocus, onBlur, onFocus, onChange, required, schema, rawErrors, registry } = props;
  const mustTick = schemaRequiresTrueValue(schema) || !!required;
  return (
    <div className={`checkbox ${disabled || readonly ? 'disabled' : ''}`.trim()}>
      <label>
        <input
          type="checkbox"
          id={id}
          name={htmlName || id}
          checked={value === true}
          required={mustTick}
          aria-required={mustTick || undefined}
          disabled={disabled || readonly}
          autoFocus={autofocus}
          onChange={(event) => onChange(event.target.checked)}
          onBlur={() => onBlur(id, value)}
          onFocus={() => onFocus(id, value)}
          {...errorAria(registry.formContext, id, rawErrors)}
        />
        {!hideLabel && <span>{label}</span>}
        {mustTick && !readonly && (
          <span className="badge badge--required" aria-hidden="true">
            {messages.form.required}
          </span>
        )}
      </label>
    </div>
  );
}
