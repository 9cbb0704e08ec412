import type { WidgetProps } from '@rjsf/utils';
import { schemaRequiresTrueValue } from '@rjsf/utils';
import messages from '../../../messages/ja.json';
import { errorAria } from '../form-context';

/** A single checkbox (an agreement, a confirmation). A box that must be ticked carries the same
 *  "required" badge as every other required field, not rjsf's bare "*"; its error is linked to it. */
export default function CheckboxWidget(props: WidgetProps) {
  const { id, htmlName, value, disabled, readonly, label, hideLabel, autofocus, onBlur, onFocus, onChange, required, schema, options } = props;
  const mustTick = schemaRequiresTrueValue(schema) || !!required;
  // rjsf gives a lone checkbox no field label, so FieldTemplate shows no description for it: the
  // widget shows it, above the box, with the id the box is described by (errorAria).
  const description = options.description || schema.description;
  return (
    <div className={`checkbox ${disabled || readonly ? 'disabled' : ''}`.trim()}>
      {description && !hideLabel && (
        <div className="field__description" id={`${id}__description`}>
          {String(description)}
        </div>
      )}
      <label>
        <input
          type="checkbox"
          id={id}
          name={htmlName || id}
          checked={value === true}
          required={mustTick}
          aria-required={mustTick || undefined}
          // Chromium gives a checkbox's required state no place in the accessibility tree: the
          // box is named by its text and its "required" badge, as they show.
          aria-labelledby={mustTick && !readonly && !hideLabel ? `${id}__text ${id}__badge` : undefined}
          disabled={disabled || readonly}
          autoFocus={autofocus}
          onChange={(event) => onChange(event.target.checked)}
          onBlur={() => onBlur(id, value)}
          onFocus={() => onFocus(id, value)}
          {...errorAria(props)}
        />
        {!hideLabel && <span id={`${id}__text`}>{label}</span>}
        {mustTick && !readonly && (
          <span className="badge badge--required" aria-hidden="true" id={`${id}__badge`}>
            {messages.form.required}
          </span>
        )}
      </label>
    </div>
  );
}
