import { useState } from 'react';
import type { FieldTemplateProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import messages from '../../../messages/ja.json';
import { atOnceMessages, helpShown, shownErrors } from '../form-context';
import { useHeldWhilePressed } from '../after-pointer';
import { LiveVerdictContext, SetLiveVerdictContext, type LiveVerdict } from '../live-field';

const GROUP_WIDGETS = new Set(['radio', 'master-radio', 'master-checkboxes', 'pin', 'date-parts']);

const joined = (list: string[]) => list.join('\n');

/** Label with a required/optional badge, the input, help, and the field's errors once the member has
 *  left the field or tried to submit (so nothing shouts while they are still typing). The errors
 *  are not a live region each: the form's summary takes focus after a failed submit, and the page's
 *  one polite region says what a field left in error is missing (SchemaForm). What shows is held
 *  while a pointer is pressed, so a message coming or going never moves the control being pressed
 *  (after-pointer.ts). While the field holds typed text the form does not have yet, its messages
 *  are its own validator's on that text (live-field.ts): a key re-renders this template and its
 *  widget, not the form. */
export default function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawErrors, help, rawHelp, description, rawDescription, hidden, required, displayLabel, registry, uiSchema, schema, classNames, readonly } = props;
  const options = getUiOptions(uiSchema);
  const [live, setLive] = useState<LiveVerdict | null>(null);
  const errors = live ? live.messages : rawErrors;
  const shown = useHeldWhilePressed([...shownErrors(registry.formContext, id, errors, atOnceMessages(schema, options), !!live)], joined);
  if (hidden) return <div className="hidden">{children}</div>;
  const isObject = schema.type === 'object';
  const isCheckbox = options.widget === 'checkbox' || schema.type === 'boolean';
  // A group of controls has no one control a <label for> could point at: its widget names the
  // group with this text (by aria-labelledby to its id, or by the same words).
  const Label = GROUP_WIDGETS.has(String(options.widget)) ? 'div' : 'label';
  if (isObject) return <div className={classNames}>{children}</div>;
  return (
    <div className={`field ${shown.length ? 'field--error' : ''} ${classNames ?? ''}`.trim()} data-field={id}>
      {displayLabel && !isCheckbox && (
        <Label className="field__label" htmlFor={Label === 'label' ? id : undefined} id={`${id}__label`}>
          {label}
          {/* required on the input says it to assistive tech; the badge is for the eye.
              A read-only field asks nothing of the member, so it has none. */}
          {!readonly && (
            // Where the required state is not heard (a group of boxes has none in ARIA, Chromium
            // gives none of a select's to the accessibility tree), the control names itself by
            // the label and this badge (requiredInName).
            <span className={required ? 'badge badge--required' : 'badge badge--optional'} aria-hidden="true" id={`${id}__badge`}>
              {required ? messages.form.required : messages.form.optional}
            </span>
          )}
        </Label>
      )}
      {displayLabel && rawDescription ? <div className="field__description">{description}</div> : null}
      <SetLiveVerdictContext.Provider value={setLive}>
        <LiveVerdictContext.Provider value={live}>{children}</LiveVerdictContext.Provider>
      </SetLiveVerdictContext.Provider>
      {shown.length > 0 && (
        <ul className="field__errors" id={`${id}__error`}>
          {shown.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
      {/* rawHelp is only a string help; a help given as an element (the form review page's notes) always shows */}
      {(typeof rawHelp !== 'string' || helpShown(rawHelp, shown)) && help}
    </div>
  );
}
