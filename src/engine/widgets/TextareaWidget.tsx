import type { WidgetProps } from '@rjsf/utils';
import { errorAria } from '../form-context';
import messages from '../../../messages/ja.json';
import { format } from '../../shared/format';
import { useImeSafeText } from '../use-ime-safe-text';

/** Multi-line text: IME-safe, normalised, optionally trimmed on blur, with a character count
 *  against the schema's limits. */
export default function TextareaWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, options, schema, placeholder, required, rawErrors, registry }: WidgetProps) {
  const text = useImeSafeText(value, onChange, options.normalise as string[] | undefined, options.emptyValue);
  const count = [...text.value].length;
  const { minLength, maxLength } = schema;
  return (
    <>
      <textarea
        id={id}
        name={id}
        className="input"
        rows={Number(options.rows ?? 4)}
        readOnly={readonly}
        disabled={disabled}
        placeholder={placeholder}
        aria-required={required || undefined}
        {...errorAria(registry.formContext, id, rawErrors, [`${id}__count`])}
        {...text}
        onBlur={(event) => {
          const trimmed = event.target.value.trim();
          if (options.trimOnBlur && trimmed !== event.target.value) onChange(trimmed === '' ? options.emptyValue : trimmed);
          onBlur(id, trimmed);
        }}
        onFocus={(event) => onFocus(id, event.target.value)}
      />
      {(minLength !== undefined || maxLength !== undefined) && (
        <p className="field__count" id={`${id}__count`}>
          {format(messages.form.charCount, { count })}
          {minLength !== undefined && maxLength !== undefined && format(messages.form.charRange, { min: minLength, max: maxLength })}
          {minLength === undefined && maxLength !== undefined && format(messages.form.charMax, { max: maxLength })}
        </p>
      )}
    </>
  );
}
