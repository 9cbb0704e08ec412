import type { WidgetProps } from '@rjsf/utils';
import { engineContext, masterName } from '../form-context';
import { ChoiceGroup } from './ChoiceGroup';

/** Checkboxes for an array of master codes (the list its schema names in `x-master`). The value
 *  keeps the list's order; an empty choice is `undefined`, so `required` applies. */
export default function MasterCheckboxesWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly, schema, registry } = props;
  const list = engineContext(registry.formContext)?.masters[masterName(schema)] ?? [];
  const chosen = new Set<string>(Array.isArray(value) ? value : []);
  const toggle = (code: string) => {
    const next = new Set(chosen);
    if (next.has(code)) next.delete(code);
    else next.add(code);
    const ordered = list.map((o) => o.value).filter((v) => next.has(v));
    onChange(ordered.length ? ordered : undefined);
  };
  const choices = list.map((option, index) => ({
    id: `${id}-${index}`,
    value: option.value,
    label: option.label,
    checked: chosen.has(option.value),
    disabled: disabled || readonly,
    onChange: () => toggle(option.value),
  }));
  return <ChoiceGroup widget={props} type="checkbox" choices={choices} />;
}
