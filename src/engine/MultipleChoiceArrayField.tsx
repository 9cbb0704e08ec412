// rjsf's ArrayField with its array templates and buttons (about 4 KB gzip) renders every kind of
// array; the forms' only arrays are lists of choices ticked in one widget the UI schema names,
// which finds its choices itself (the master-* widgets). rjsf renders those through ArrayField's
// `onSelectChange` and `ArrayAsCustomWidget` (@rjsf/core 6, lib/components/fields/ArrayField.js),
// and that path is this stand-in; anything else (an enum multiple choice, a list of rows) it
// refuses loudly. In the client bundle a form module with an array brings it instead of rjsf's
// (tools/vite-plugin-forms.ts, ADR 029). tests/contract/array-field-stand-in.test.tsx holds that
// every array of every form takes that path, and that this renders them, hands the widget the same
// props and changes them as rjsf's ArrayField does.
import { useCallback } from 'react';
import { getUiOptions, getWidget, ID_KEY, isCustomWidget, ITEMS_KEY, toFieldPathId, useDeepCompareMemo, type FieldProps } from '@rjsf/utils';

export default function MultipleChoiceArrayField(props: FieldProps) {
  const { schema, uiSchema, fieldPathId: ownPathId, registry, formData, onChange, name, disabled = false, readonly = false, autofocus = false, required = false, hideError, placeholder, onBlur, onFocus, rawErrors } = props;
  const { widgets, schemaUtils, globalFormOptions, globalUiOptions } = registry;
  const fieldPathId = props.childFieldPathId ?? ownPathId;
  const onSelectChange = useCallback((value: unknown) => onChange(value, fieldPathId.path, undefined, fieldPathId[ID_KEY]), [onChange, fieldPathId]);
  const multiValueFieldPathId = useDeepCompareMemo(toFieldPathId('', globalFormOptions, fieldPathId, true));
  if (!(ITEMS_KEY in schema) || schemaUtils.isMultiSelect(schema) || !isCustomWidget(uiSchema)) {
    throw new Error(`The client bundle renders arrays of choices ticked in a named widget only, and ${fieldPathId[ID_KEY]} is another kind (src/engine/MultipleChoiceArrayField.tsx, ADR 029)`);
  }
  const { widget, title: uiTitle, ...options } = getUiOptions(uiSchema, globalUiOptions);
  const Widget = getWidget(schema, widget, widgets);
  const label = uiTitle ?? schema.title ?? name;
  const displayLabel = schemaUtils.getDisplayLabel(schema, uiSchema, globalUiOptions);
  return (
    <Widget
      id={multiValueFieldPathId[ID_KEY]}
      name={name}
      multiple
      onChange={onSelectChange}
      onBlur={onBlur}
      onFocus={onFocus}
      options={options}
      schema={schema}
      uiSchema={uiSchema}
      registry={registry}
      value={formData === undefined ? [] : formData}
      disabled={disabled}
      readonly={readonly}
      hideError={hideError}
      required={required}
      label={label}
      hideLabel={!displayLabel}
      placeholder={placeholder}
      autofocus={autofocus}
      rawErrors={rawErrors}
      htmlName={multiValueFieldPathId.name}
    />
  );
}
