// The engine's templates: every form renders through them (rjsf's own versions of these are left
// out of the client bundle, tools/vite-plugin-slim-client.ts).
import type { TemplatesType } from '@rjsf/utils';
import BaseInputTemplate from './templates/BaseInputTemplate';
import FieldTemplate from './templates/FieldTemplate';
import FieldHelpTemplate from './templates/FieldHelpTemplate';
import ObjectFieldTemplate from './templates/ObjectFieldTemplate';
import ErrorSummaryTemplate from './templates/ErrorSummaryTemplate';

export const templates: Partial<TemplatesType> = {
  BaseInputTemplate,
  FieldTemplate,
  FieldHelpTemplate,
  ObjectFieldTemplate,
  ErrorListTemplate: ErrorSummaryTemplate,
};
