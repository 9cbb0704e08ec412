// A code entered in N single-digit boxes (5 by default: "ui:options": { "length": 5 }).
// Digits only (full-width digits are converted), a pasted or autofilled code fills all boxes,
// Backspace on an empty box moves back, arrow keys move between boxes.
import { useRef, type ClipboardEvent, type KeyboardEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { errorAria } from '../form-context';
import messages from '../../../messages/ja.json';
import { format } from '../../shared/format';
import { digitsOnly } from '../../shared/normalise';

const HOLE = ' ';

export default function PinInputWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, options, label, hideLabel, autofocus, required } = props;
  const length = Number(options.length ?? 5);
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const chars = Array.from({ length }, (_, i) => (typeof value === 'string' ? value[i] : undefined) ?? HOLE);

  const emit = (next: string[]) => {
    const joined = next.join('').replace(/\s+$/, '');
    onChange(joined === '' ? undefined : joined);
  };
  const focusBox = (index: number) => boxes.current[Math.max(0, Math.min(length - 1, index))]?.focus();

  const fillFrom = (start: number, digits: string) => {
    const next = [...chars];
    const from = digits.length >= length ? 0 : start;
    [...digits].slice(0, length - from).forEach((d, k) => (next[from + k] = d));
    emit(next);
    focusBox(Math.min(from + digits.length, length - 1));
  };

  const onInput = (index: number, raw: string) => {
    // The box usually has its digit selected, so typing replaces it; if not, drop the old one.
    const old = chars[index].trim();
    const typed = old && raw.length === 2 && raw.includes(old) ? (raw.startsWith(old) ? raw.slice(1) : raw.slice(0, 1)) : raw;
    const digits = digitsOnly(typed);
    if (digits) fillFrom(index, digits);
    else if (raw === '') emit(chars.map((c, i) => (i === index ? HOLE : c)));
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    // A digit key is handled here, not on change: retyping the digit a box already holds
    // changes nothing in the DOM, so no change event would move the member on.
    if (/^[0-9]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      fillFrom(index, event.key);
    } else if (event.key === 'Backspace' && chars[index] === HOLE && index > 0) {
      event.preventDefault();
      emit(chars.map((c, i) => (i === index - 1 ? HOLE : c)));
      focusBox(index - 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  const onPaste = (index: number, event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const digits = digitsOnly(event.clipboardData.getData('text'));
    if (digits) fillFrom(index, digits);
  };

  return (
    // Named by the field's label as shown (FieldTemplate's, which already says the length), once.
    // Described and marked invalid as its boxes are: the group's error is said as the member enters it.
    <div className="pin" role="group" aria-labelledby={hideLabel ? undefined : `${id}__label`} aria-label={hideLabel ? label : undefined} id={id} {...errorAria(props)}>
      {chars.map((char, index) => (
        <input
          key={index}
          ref={(el) => {
            boxes.current[index] = el;
          }}
          id={index === 0 ? `${id}__0` : undefined}
          className="pin__box"
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          aria-label={format(messages.form.pinLabel, { n: index + 1 })}
          // Every box must hold its digit: each is required, as the group cannot say it.
          required={required}
          aria-required={required || undefined}
          {...errorAria(props)}
          autoFocus={autofocus && index === 0}
          disabled={disabled}
          readOnly={readonly}
          value={char.trim()}
          onChange={(event) => onInput(index, event.target.value)}
          onKeyDown={(event) => onKeyDown(index, event)}
          onPaste={(event) => onPaste(index, event)}
          onFocus={(event) => {
            event.target.select();
            onFocus(id, value);
          }}
          onBlur={(event) => {
            // Moving between the boxes is not leaving the field: no error until focus goes elsewhere.
            if (!event.currentTarget.parentElement?.contains(event.relatedTarget as Node | null)) onBlur(id, value);
          }}
        />
      ))}
    </div>
  );
}
