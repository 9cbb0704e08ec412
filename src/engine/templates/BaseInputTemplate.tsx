import type { ClipboardEvent, DragEvent, MouseEvent } from 'react';
import { ariaDescribedByIds, getInputProps, type WidgetProps } from '@rjsf/utils';
import { useImeSafeText } from '../use-ime-safe-text';

const block = (event: ClipboardEvent | DragEvent | MouseEvent) => event.preventDefault();

/** Every text-like input. UI options: autocomplete, inputMode, normalise (list of names from
 *  src/shared/normalise.ts), trimOnBlur, blockClipboard (no copy, paste, drop or context menu), describedBy (an extra id). */
export default function BaseInputTemplate(props: WidgetProps) {
  const { id, htmlName, value, readonly, disabled, autofocus, onBlur, onFocus, onChange, options, schema, type, placeholder, required, rawErrors } = props;
  const inputProps = getInputProps(schema, type, options);
  const text = useImeSafeText(value, onChange, options.normalise as string[] | undefined, options.emptyValue);
  const blocked = options.blockClipboard ? { onCopy: block, onCut: block, onPaste: block, onDrop: block, onContextMenu: block } : {};
  return (
    <input
      id={id}
      name={htmlName || id}
      className="input"
      readOnly={readonly}
      disabled={disabled}
      autoFocus={autofocus}
      placeholder={placeholder}
      required={required}
      aria-required={required || undefined}
      aria-invalid={rawErrors && rawErrors.length > 0 ? true : undefined}
      {...inputProps}
      autoComplete={(options.autocomplete as string | undefined) ?? inputProps.autoComplete}
      inputMode={options.inputMode as React.HTMLAttributes<HTMLInputElement>['inputMode']}
      maxLength={(options.maxLength as number | undefined) ?? schema.maxLength}
      {...text}
      {...blocked}
      onBlur={(event) => {
        const trimmed = event.target.value.trim();
        if (options.trimOnBlur && trimmed !== event.target.value) onChange(trimmed === '' ? options.emptyValue : trimmed);
        onBlur(id, event.target.value);
      }}
      onFocus={(event) => onFocus(id, event.target.value)}
      aria-describedby={[ariaDescribedByIds(id), options.describedBy].filter(Boolean).join(' ')}
    />
  );
}
