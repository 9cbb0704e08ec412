// The engine's widgets by the name a UI schema gives them ("ui:widget": "pin"), or by the name of
// the rjsf default they replace (TextareaWidget), each with its file under widgets/. A form module
// (virtual:form/<name>, tools/vite-plugin-forms.ts) imports only the widgets its form reaches, so a
// screen carries the widgets of its own forms and no others (ADR 029). Adding a widget is a file
// in widgets/ and a line here. Plain data: the build tools read it too.
export const ENGINE_WIDGETS = {
  pin: 'PinInputWidget',
  'date-parts': 'DatePartsWidget',
  'postal-code': 'PostalCodeWidget',
  'password-checklist': 'PasswordChecklistWidget',
  'master-select': 'MasterSelectWidget',
  'master-radio': 'MasterRadioWidget',
  'master-checkboxes': 'MasterCheckboxesWidget',
  TextareaWidget: 'TextareaWidget',
  CheckboxWidget: 'CheckboxWidget',
  RadioWidget: 'RadioWidget',
  HiddenWidget: 'HiddenWidget',
} as const;

export type EngineWidgetName = keyof typeof ENGINE_WIDGETS;

/** rjsf's own widgets that an engine widget replaces under the same registry name. */
export const REPLACED_RJSF_WIDGETS = Object.keys(ENGINE_WIDGETS).filter((name) => /^[A-Z]\w*Widget$/.test(name));
