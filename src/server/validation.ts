// The server's ajv: the same configuration as the client's precompiled validators
// (src/shared/validation/ajv-setup.ts), with every shared and API schema added by $id.
import type { FastifyInstance } from 'fastify';
import type { FastifySchemaValidationError } from 'fastify/types/schema';
import type { ErrorObject } from 'ajv';
import messages from '../../messages/ja.json';
import { createAjv } from '../shared/validation/ajv-setup';
import { formNames, loadApiSchemas, loadForm, loadSharedSchemas } from '../shared/validation/schema-files';
import { toFieldErrors } from '../shared/validation/field-errors';
import type { JsonObject } from '../shared/validation/schema-bundle';

export function createServerAjv() {
  const ajv = createAjv();
  for (const schema of Object.values(loadSharedSchemas())) ajv.addSchema(schema);
  // Forms too, so an API payload can refer to a form's field ("form.<name>.json#/properties/…").
  for (const name of formNames()) ajv.addSchema(loadForm(name).schema, `form.${name}.json`);
  const api = loadApiSchemas();
  for (const schema of Object.values(api)) ajv.addSchema(schema);
  return { ajv, api };
}

export type ApiSchemas = Record<string, JsonObject>;

export function installValidation(app: FastifyInstance) {
  const { ajv, api } = createServerAjv();
  app.setValidatorCompiler(({ schema }) => {
    const id = (schema as { $id?: string }).$id;
    const compiled = id ? ajv.getSchema(id) : undefined;
    return compiled ?? ajv.compile(schema);
  });
  return api;
}

export function validationFields(errors: FastifySchemaValidationError[]) {
  return toFieldErrors(errors as unknown as ErrorObject[], messages.form.fallbackFieldError);
}
