import type { WidgetProps } from '@rjsf/utils';
import { enumOptionsIsSelected, enumOptionValueEncoder, getOptionValueFormat, optionId } from '@rjsf/utils';
import { errorAria } from '../form-context';

/** Radio buttons for an enum (`"ui:widget": "radio"`), in place of rjsf's: the group is named by
 *  the field's label and described only by the texts its field renders (rjsf's points at an error,
 *  description and help whether they exist or not), and each choice is one label, its whole box
 *  the target. */
export default function RadioWidget(props: WidgetProps) {
  const { id, htmlName, value, options, disabled, readonly, autofocus, label, onChange, onBlur, onFocus, required } = props;
  const { enumOptions, enumDisabled } = options;
  const format = getOptionValueFormat(options);
  return (
    <div className="choices choices--inline" role="radiogroup" aria-label={label} aria-required={required || undefined} id={id} {...errorAria(props)}>
      {(enumOptions ?? []).map((option, index) => {
        const itemDisabled = Array.isArray(enumDisabled) && enumDisabled.includes(option.value);
        return (
          <label key={String(option.value)} className="choice">
            <input
              type="radio"
              id={optionId(id, index)}
              name={htmlName || id}
              value={enumOptionValueEncoder(option.value, index, format)}
              checked={enumOptionsIsSelected(option.value, value)}
              required={required}
              disabled={disabled || readonly || itemDisabled}
              autoFocus={autofocus && index === 0}
              onChange={() => onChange(option.value)}
              onBlur={(event) => {
                if (!event.currentTarget.closest('.choices')?.contains(event.relatedTarget as Node | null)) onBlur(id, value);
              }}
              onFocus={() => onFocus(id, value)}
            />
            {option.label}
          </label>
        );
      })}
    </div>
  );
}
