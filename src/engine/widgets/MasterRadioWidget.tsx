import type { WidgetProps } from '@rjsf/utils';
import { engineContext, masterName } from '../form-context';
import { ChoiceGroup } from './ChoiceGroup';

/** Radio buttons whose options come from a master list (the list its schema names in `x-master`). */
export default function MasterRadioWidget(props: WidgetProps) {
  const { id, value, onChange, disabled, readonly, schema, registry } = props;
  const list = engineContext(registry.formContext)?.masters[masterName(schema)] ?? [];
  const choices = list.map((option, index) => ({
    id: `${id}-${index}`,
    value: option.value,
    label: option.label,
    checked: value === option.value,
    disabled: disabled || readonly,
    onChange: () => onChange(option.value),
  }));
  return <ChoiceGroup widget={props} type="radio" choices={choices} inline />;
}
