import type { FieldTemplateProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import messages from '../../../messages/ja.json';
import { atOnceMessages, helpShown, shownErrors } from '../form-context';

const GROUP_WIDGETS = new Set(['radio', 'master-radio', 'master-checkboxes', 'pin', 'date-parts']);

/** Label with a required/optional badge, the input, help, and the field's errors once the member has
 *  left the field or tried to submit (so nothing shouts while they are still typing). */
export default function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, rawErrors, help, rawHelp, description, rawDescription, hidden, required, displayLabel, registry, uiSchema, schema, classNames, readonly } = props;
  if (hidden) return <div className="hidden">{children}</div>;
  const options = getUiOptions(uiSchema);
  const isObject = schema.type === 'object';
  const shown = shownErrors(registry.formContext, id, rawErrors, atOnceMessages(schema, options));
  const isCheckbox = options.widget === 'checkbox' || schema.type === 'boolean';
  // A group of controls has no one control a <label for> could point at: its widget names the
  // group with this text (by aria-labelledby to its id, or by the same words).
  const Label = GROUP_WIDGETS.has(String(options.widget)) ? 'div' : 'label';
  if (isObject) return <div className={classNames}>{children}</div>;
  return (
    <div className={`field ${shown.length ? 'field--error' : ''} ${classNames ?? ''}`.trim()} data-field={id}>
      {displayLabel && !isCheckbox && (
        <Label className="field__label" htmlFor={Label === 'label' ? id : undefined} id={Label === 'label' ? undefined : `${id}__label`}>
          {label}
          {/* aria-required on the input says it to assistive tech; the badge is for the eye.
              A read-only field asks nothing of the member, so it has none. */}
          {!readonly && (
            <span className={required ? 'badge badge--required' : 'badge badge--optional'} aria-hidden="true">
              {required ? messages.form.required : messages.form.optional}
            </span>
          )}
        </Label>
      )}
      {displayLabel && rawDescription ? <div className="field__description">{description}</div> : null}
      {children}
      {shown.length > 0 && (
        // role="alert" on a wrapper: a list keeps its own role, so its items stay list items.
        <div id={`${id}__error`} role="alert">
          <ul className="field__errors">
            {shown.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </div>
      )}
      {helpShown(rawHelp, shown) && help}
    </div>
  );
}
