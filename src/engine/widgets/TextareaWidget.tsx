import { useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { errorAria, withLiveErrors } from '../form-context';
import { judgeOf, useLiveVerdict } from '../live-field';
import messages from '../../../messages/ja.json';
import { format } from '../../shared/format';
import { leaveAndEnter, textOf, useImeSafeText } from '../use-ime-safe-text';
import { liveNormalisers } from '../../shared/normalise';

/** Multi-line text: IME-safe, normalised as its schema's `x-normalise` says, judged on each key by
 *  its field's own validator (live-field.ts), with a character count against the schema's limits. */
export default function TextareaWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, options, schema, placeholder, required } = props;
  // The count follows every key: the text typed, while the form does not have it yet.
  const [typed, setTyped] = useState<string | null>(null);
  const { commitNow, ...text } = useImeSafeText<HTMLTextAreaElement>(value, onChange, liveNormalisers(schema), options.emptyValue, judgeOf(props), setTyped);
  const live = useLiveVerdict();
  const count = [...(typed ?? textOf(value))].length;
  const { minLength, maxLength } = schema;
  const counted = minLength !== undefined || maxLength !== undefined;
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
        {...errorAria(withLiveErrors(props, live), [counted && `${id}__count`])}
        {...text}
        {...leaveAndEnter({ id, schema, emptyValue: options.emptyValue, onChange, onBlur, onFocus }, commitNow)}
      />
      {counted && (
        <p className="field__count" id={`${id}__count`}>
          {format(messages.form.charCount, { count })}
          {minLength !== undefined && maxLength !== undefined && format(messages.form.charRange, { min: minLength, max: maxLength })}
          {minLength === undefined && maxLength !== undefined && format(messages.form.charMax, { max: maxLength })}
        </p>
      )}
    </>
  );
}
