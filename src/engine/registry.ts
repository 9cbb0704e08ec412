// The engine's widgets and templates, registered once. A UI schema picks a widget by name
// ("ui:widget": "pin"); adding one is a file in widgets/ and a line here.
import type { RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
import PinInputWidget from './widgets/PinInputWidget';
import DatePartsWidget from './widgets/DatePartsWidget';
import PostalCodeWidget from './widgets/PostalCodeWidget';
import PasswordChecklistWidget from './widgets/PasswordChecklistWidget';
import MasterSelectWidget from './widgets/MasterSelectWidget';
import MasterRadioWidget from './widgets/MasterRadioWidget';
import MasterCheckboxesWidget from './widgets/MasterCheckboxesWidget';
import TextareaWidget from './widgets/TextareaWidget';
import CheckboxWidget from './widgets/CheckboxWidget';
import RadioWidget from './widgets/RadioWidget';
import BaseInputTemplate from './templates/BaseInputTemplate';
import FieldTemplate from './templates/FieldTemplate';
import FieldHelpTemplate from './templates/FieldHelpTemplate';
import ObjectFieldTemplate from './templates/ObjectFieldTemplate';
import ErrorSummaryTemplate from './templates/ErrorSummaryTemplate';

export const widgets: RegistryWidgetsType = {
  pin: PinInputWidget,
  'date-parts': DatePartsWidget,
  'postal-code': PostalCodeWidget,
  'password-checklist': PasswordChecklistWidget,
  'master-select': MasterSelectWidget,
  'master-radio': MasterRadioWidget,
  'master-checkboxes': MasterCheckboxesWidget,
  TextareaWidget,
  CheckboxWidget,
  RadioWidget,
};

export const templates: Partial<TemplatesType> = {
  BaseInputTemplate,
  FieldTemplate,
  FieldHelpTemplate,
  ObjectFieldTemplate,
  ErrorListTemplate: ErrorSummaryTemplate,
};
