declare module 'virtual:form/*' {
  import type { RJSFSchema, UiSchema } from '@rjsf/utils';
  import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
  export const schema: RJSFSchema;
  export const uiSchema: UiSchema;
  export const validateFns: ValidatorFunctions;
  /** One validator per typed field, by field name (tools/field-schemas.ts). */
  export const fieldValidateFns: Record<string, import('./engine/field-verdict').FieldValidator>;
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
  import type { RJSFSchema, UiSchema } from '@rjsf/utils';
  import type { ValidatorFunctions } from '@rjsf/validator-ajv8';
  /** Every form under schemas/forms, by name, as a lazy import of `virtual:form/<name>`. */
  export const forms: Record<
    string,
    () => Promise<{ schema: RJSFSchema; uiSchema: UiSchema; validateFns: ValidatorFunctions; fieldValidateFns: Record<string, import('./engine/field-verdict').FieldValidator>; name: string }>
  >;
}
