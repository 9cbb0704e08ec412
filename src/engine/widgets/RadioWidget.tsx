import type { WidgetProps } from '@rjsf/utils';
import { enumOptionsIsSelected, enumOptionValueEncoder, getOptionValueFormat, optionId } from '@rjsf/utils';
import { ChoiceGroup } from './ChoiceGroup';

/** Radio buttons for an enum (`"ui:widget": "radio"`), in place of rjsf's, whose group pointed at
 *  an error, description and help whether they existed or not (ChoiceGroup says what it does). */
export default function RadioWidget(props: WidgetProps) {
  const { id, value, options, disabled, readonly, onChange } = props;
  const { enumOptions, enumDisabled } = options;
  const format = getOptionValueFormat(options);
  const choices = (enumOptions ?? []).map((option, index) => ({
    id: optionId(id, index),
    value: String(enumOptionValueEncoder(option.value, index, format)),
    label: option.label,
    checked: enumOptionsIsSelected(option.value, value),
    disabled: disabled || readonly || (Array.isArray(enumDisabled) && enumDisabled.includes(option.value)),
    onChange: () => onChange(option.value),
  }));
  return <ChoiceGroup widget={props} type="radio" choices={choices} inline />;
}
