import type { ClipboardEvent, DragEvent, MouseEvent } from 'react';
import { getInputProps, type WidgetProps } from '@rjsf/utils';
import { errorAria } from '../form-context';
import { useImeSafeText } from '../use-ime-safe-text';
import { applyNormalisers } from '../../shared/normalise';

const block = (event: ClipboardEvent | DragEvent | MouseEvent) => event.preventDefault();

/** Every text-like input. UI options: autocomplete, inputMode, normalise (list of names from
 *  src/shared/normalise.ts), normaliseOnBlur, trimOnBlur, blockClipboard (no copy, paste, drop or context menu),
 *  blockContextMenu, describedBy (an extra id). */
export default function BaseInputTemplate(props: WidgetProps) {
  const { id, htmlName, value, readonly, disabled, autofocus, onBlur, onFocus, onChange, options, schema, type, placeholder, required, rawErrors, registry } = props;
  const inputProps = getInputProps(schema, type, options);
  const text = useImeSafeText(value, onChange, options.normalise as string[] | undefined, options.emptyValue);
  const blocked = {
    ...(options.blockClipboard ? { onCopy: block, onCut: block, onPaste: block, onDrop: block, onContextMenu: block } : {}),
    ...(options.blockContextMenu ? { onContextMenu: block } : {}),
  };
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
      {...inputProps}
      autoComplete={(options.autocomplete as string | undefined) ?? inputProps.autoComplete}
      inputMode={options.inputMode as React.HTMLAttributes<HTMLInputElement>['inputMode']}
      maxLength={(options.maxLength as number | undefined) ?? schema.maxLength}
      {...text}
      {...blocked}
      onBlur={(event) => {
        const raw = event.target.value;
        // Rewrites that would get in the way while typing (e.g. a date) happen on leaving.
        let next = applyNormalisers(raw, options.normaliseOnBlur as string[] | undefined);
        if (options.trimOnBlur) next = next.trim();
        if (next !== raw) onChange(next === '' ? options.emptyValue : next);
        onBlur(id, next);
      }}
      onFocus={(event) => onFocus(id, event.target.value)}
      {...errorAria(registry.formContext, id, rawErrors, [options.describedBy as string | undefined])}
    />
  );
}
