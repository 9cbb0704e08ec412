import type { ClipboardEvent, DragEvent, MouseEvent } from 'react';
import { getInputProps, type WidgetProps } from '@rjsf/utils';
import { atOnceMessages, errorAria, shownErrors, withLiveErrors } from '../form-context';
import { judgeOf, useLiveVerdict } from '../live-field';
import { leaveAndEnter, useImeSafeText } from '../use-ime-safe-text';
import { liveNormalisers, normalisersOf, storedFormOf } from '../../shared/normalise';
import messages from '../../../messages/ja.json';
import { format } from '../../shared/format';

const block = (event: ClipboardEvent | DragEvent | MouseEvent) => event.preventDefault();

/** Every text-like input. It normalises as its field's schema says (`x-normalise`: the live ones
 *  while typing, all but the stored-only ones on leaving) and judges each key by its field's own
 *  validator (live-field.ts); the form gets the value when the member pauses or leaves
 *  (catch-up.ts). A field stored in another form than typed (a roman name in its passport
 *  spelling) shows that form under the input while the field has no error to show.
 *  UI options: autocomplete, inputMode, blockClipboard (no copy, paste, drop or context menu),
 *  blockContextMenu, describedBy (an extra id). */
export default function BaseInputTemplate(props: WidgetProps) {
  const { id, htmlName, value, readonly, disabled, autofocus, onBlur, onFocus, onChange, options, schema, type, placeholder, required, registry } = props;
  const inputProps = getInputProps(schema, type, options);
  const { commitNow, ...text } = useImeSafeText(value, onChange, liveNormalisers(schema), options.emptyValue, judgeOf(props));
  const live = useLiveVerdict();
  const judged = withLiveErrors(props, live);
  const stored = readonly ? undefined : storedFormOf(schema, value);
  const storedShown = stored !== undefined && shownErrors(registry.formContext, id, judged.rawErrors, atOnceMessages(schema, options), judged.edited).length === 0;
  // A field whose normalisers drop characters (hyphens, spaces) may be typed longer than it is
  // kept: no length cap while typing (a cap would cut "090-1234-5678"), the schema judges the
  // normalised value.
  const dropsCharacters = normalisersOf(schema).some((name) => name === 'digitsOnly' || name === 'removeHyphens');
  const blocked = {
    ...(options.blockClipboard ? { onCopy: block, onCut: block, onPaste: block, onDrop: block, onContextMenu: block } : {}),
    ...(options.blockContextMenu ? { onContextMenu: block } : {}),
  };
  return (
    <>
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
        maxLength={dropsCharacters ? undefined : ((options.maxLength as number | undefined) ?? schema.maxLength)}
        {...text}
        {...blocked}
        {...leaveAndEnter({ id, schema, emptyValue: options.emptyValue, onChange, onBlur, onFocus }, commitNow)}
        {...errorAria(judged, [options.describedBy as string | undefined, storedShown && `${id}__stored`])}
      />
      {storedShown && (
        <p className="field__stored" id={`${id}__stored`}>
          {format(messages.form.storedAs, { value: stored })}
        </p>
      )}
    </>
  );
}
