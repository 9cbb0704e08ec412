declare module 'virtual:form/*' {
  import type { RegistryFieldsType, RegistryWidgetsType, RJSFSchema, TemplatesType, UiSchema } from '@rjsf/utils';
  import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
  export const schema: RJSFSchema;
  export const uiSchema: UiSchema;
  export const validateFns: ValidatorFunctions;
  /** One validator per typed field, by field name (tools/field-schemas.ts). */
  export const fieldValidateFns: Record<string, import('./engine/field-verdict').FieldValidator>;
  export const name: string;
  /** The parts of the engine and of rjsf this form needs (tools/form-parts.ts). */
  export const widgets: RegistryWidgetsType;
  export const fields: RegistryFieldsType;
  export const templates: Partial<TemplatesType>;
}
declare module 'virtual:form-data/*' {
  import type { RJSFSchema, UiSchema } from '@rjsf/utils';
  /** A form's schema and UI schema alone, for a screen that reads them without rendering the form. */
  export const schema: RJSFSchema;
  export const uiSchema: UiSchema;
  export const name: string;
}
declare module '@rjsf/validator-ajv8/lib/createAjvInstance.js' {
  import type Ajv from 'ajv';
  import type { Options } from 'ajv';
  export default function createAjvInstance(
    additionalMetaSchemas?: unknown,
    customFormats?: unknown,
    ajvOptionsOverrides?: Options,
    ajvFormatOptions?: unknown,
    AjvClass?: unknown,
    extenderFn?: (ajv: Ajv) => Ajv,
  ): Ajv;
}
declare module 'virtual:form-index' {
  import type { RegistryFieldsType, RegistryWidgetsType, RJSFSchema, TemplatesType, UiSchema } from '@rjsf/utils';
  import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
  /** Every form under schemas/forms, by name, as a lazy import of `virtual:form/<name>`. */
  export const forms: Record<
    string,
    () => Promise<{ schema: RJSFSchema; uiSchema: UiSchema; validateFns: ValidatorFunctions; fieldValidateFns: Record<string, import('./engine/field-verdict').FieldValidator>; name: string; widgets: RegistryWidgetsType; fields: RegistryFieldsType; templates: Partial<TemplatesType> }>
  >;
}
declare module 'virtual:postal-towns' {
  /** The codes of several towns under each two-digit prefix (tools/vite-plugin-postal-towns.ts). */
  export const prefixes: Record<string, () => Promise<{ default: Record<string, Array<readonly [string, string, readonly string[]]>> }>>;
}
