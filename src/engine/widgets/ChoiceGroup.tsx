import type { WidgetProps } from '@rjsf/utils';
import { errorAria, requiredInName } from '../form-context';

/** One choice of a group: its own id, the value its input carries, the label the member reads. */
export interface Choice {
  id: string;
  value: string;
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: () => void;
}

/** Radios or checkboxes as one group, for every choice widget: the group is named by the field's
 *  label and described only by the texts its field renders; each choice is one label, its whole
 *  box the target; moving between the choices is not leaving the field (its errors wait until
 *  focus goes elsewhere). */
export function ChoiceGroup({ widget, type, choices, inline = false }: { widget: WidgetProps; type: 'radio' | 'checkbox'; choices: Choice[]; inline?: boolean }) {
  const { id, htmlName, value, required, autofocus, label, hideLabel, readonly, onBlur, onFocus } = widget;
  const radio = type === 'radio';
  // A radio group says it is required (aria-required); a group of boxes cannot (ARIA gives a
  // group no required state), so its name is its label and its "required" badge, as they show.
  const namedByBadge = radio ? undefined : requiredInName({ id, required, readonly, hideLabel });
  return (
    <div
      className={inline ? 'choices choices--inline' : 'choices'}
      role={radio ? 'radiogroup' : 'group'}
      aria-label={namedByBadge ? undefined : label}
      aria-labelledby={namedByBadge}
      aria-required={(radio && required) || undefined}
      id={id}
      {...errorAria(widget)}
    >
      {choices.map((choice, index) => (
        <label key={choice.id} className="choice">
          <input
            type={type}
            id={choice.id}
            name={radio ? htmlName || id : undefined}
            value={choice.value}
            checked={choice.checked}
            disabled={choice.disabled}
            autoFocus={autofocus && index === 0}
            onChange={choice.onChange}
            onBlur={(event) => {
              if (!event.currentTarget.closest('.choices')?.contains(event.relatedTarget as Node | null)) onBlur(id, value);
            }}
            onFocus={() => onFocus(id, value)}
          />
          {choice.label}
        </label>
      ))}
    </div>
  );
}
