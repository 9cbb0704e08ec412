// A date typed in three boxes, year, month and day ("ui:widget": "date-parts"), for a date a
// member knows by heart (a birthday): no calendar to scroll back decades. The field's value is
// what the schema judges and the API takes, YYYY-MM-DD: full-width digits become half-width,
// other characters are dropped, a one-digit month or day is padded; while a box is empty the
// field has no value (its required message says to fill all three). Read-only, the date is
// shown as text, as the member info shows it.
import { useEffect, useRef, useState, type CompositionEvent, type FocusEvent } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { errorAria } from '../form-context';
import messages from '../../../messages/ja.json';
import { digitsOnly } from '../../shared/normalise';
import { fieldText } from '../../shared/member-record';
import { formatDate } from '../../shared/format-date';
import type { JsonObject } from '../../shared/validation/schema-bundle';

type Part = 'year' | 'month' | 'day';
type Parts = Record<Part, string>;

const PARTS: ReadonlyArray<{ part: Part; width: number; autoComplete: string; label: string }> = [
  { part: 'year', width: 4, autoComplete: 'bday-year', label: messages.form.dateYear },
  { part: 'month', width: 2, autoComplete: 'bday-month', label: messages.form.dateMonth },
  { part: 'day', width: 2, autoComplete: 'bday-day', label: messages.form.dateDay },
];

/** A YYYY-MM-DD value as the boxes show it (a month or day without its leading zero). */
export function splitDate(value: unknown): Parts {
  const [year = '', month = '', day = ''] = typeof value === 'string' ? value.split('-') : [];
  const unpad = (text: string) => text.replace(/^0(?=[0-9])/, '');
  return { year, month: unpad(month), day: unpad(day) };
}

/** The boxes as the field's value: YYYY-MM-DD once all three hold digits, else nothing. */
export function joinDate(parts: Parts): string | undefined {
  const [year, month, day] = [parts.year, parts.month, parts.day].map(digitsOnly);
  if (!year || !month || !day) return undefined;
  return `${year.padStart(4, '0')}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
}

export default function DatePartsWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, required, autofocus, schema } = props;
  const [parts, setParts] = useState<Parts>(() => splitDate(value));
  const composing = useRef(false);
  // The value this widget last handed the form: another value (a restored draft) is shown.
  const sent = useRef<unknown>(value);
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setParts(splitDate(value));
    }
  }, [value]);

  const aria = errorAria(props);
  if (readonly) {
    // Text, not a control: described by the field's texts (an error a stored value now meets).
    return (
      <p className="field__value" id={id} aria-describedby={aria['aria-describedby']}>
        {typeof value === 'string' && value ? fieldText(schema as JsonObject, value, formatDate) : ''}
      </p>
    );
  }

  const update = (part: Part, raw: string, settled: boolean) => {
    // During an IME composition the box shows what is typed; it is read once composed.
    const next = { ...parts, [part]: settled ? digitsOnly(raw) : raw };
    setParts(next);
    if (!settled) return;
    const joined = joinDate(next);
    sent.current = joined;
    onChange(joined);
  };
  const leaving = (event: FocusEvent<HTMLInputElement>) => {
    // Moving between the boxes is not leaving the field: no error until focus goes elsewhere.
    if (!event.currentTarget.closest('.date-parts')?.contains(event.relatedTarget as Node | null)) onBlur(id, value);
  };

  return (
    // The group is described and marked invalid as its boxes are: a screen reader says the
    // group's hint and error as the member enters it.
    <div className="date-parts" role="group" aria-labelledby={`${id}__label`} {...aria}>
      {PARTS.map(({ part, width, autoComplete, label }, index) => {
        const boxId = index === 0 ? id : `${id}__${part}`;
        return (
          <span key={part} className="date-parts__part">
            <input
              id={boxId}
              name={boxId}
              className={`input date-parts__input date-parts__input--${part}`}
              type="text"
              inputMode="numeric"
              autoComplete={autoComplete}
              maxLength={width}
              required={required}
              aria-required={required || undefined}
              disabled={disabled}
              autoFocus={autofocus && index === 0}
              value={parts[part]}
              {...aria}
              onChange={(event) => update(part, event.target.value, !composing.current && !(event.nativeEvent as InputEvent).isComposing)}
              onCompositionStart={() => (composing.current = true)}
              onCompositionEnd={(event: CompositionEvent<HTMLInputElement>) => {
                composing.current = false;
                update(part, event.currentTarget.value, true);
              }}
              onFocus={() => onFocus(id, value)}
              onBlur={(event) => {
                if (composing.current) {
                  composing.current = false;
                  update(part, event.currentTarget.value, true);
                }
                leaving(event);
              }}
            />
            <label htmlFor={boxId} className="date-parts__label">
              {label}
            </label>
          </span>
        );
      })}
    </div>
  );
}
