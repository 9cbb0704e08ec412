// Fastify route schemas, compiled by the project's one ajv setup (setValidatorCompiler). A
// route names its payload schema with apiBody(id): Fastify then runs the whole of
// src/server/validation.ts on the body (wire adapter, normalisers, the form's own schema, the
// payload's own fields) and hands the handler the validated form data. Query strings and path
// parameters name an API schema by $id and are coerced (they arrive as text). A refusal is the
// API's usual error body: 400 with Japanese messages under the fields (VALIDATION for a form's
// payload, BAD_REQUEST for query strings and parameters).
import type { FastifyInstance, FastifySchema } from 'fastify';
import { createAjv } from '../shared/validation/ajv-setup';
import { toFieldErrors } from '../shared/validation/field-errors';
import type { SchemaSet } from '../shared/validation/schema-files';
import { ApiError } from './errors';
import type { ServerValidation } from './validation';

const API_BODY = 'x-api-body';

/** The route schema of a body judged by the payload schema `id` (schemas/api). */
export function apiBody(id: string): FastifySchema['body'] {
  return { [API_BODY]: id };
}

/** A query string or path parameters judged by the API schema `id`. */
export function apiParams(set: SchemaSet, id: string): FastifySchema['querystring'] {
  const schema = set.api[id];
  if (!schema) throw new Error(`No API schema ${id}`);
  return schema;
}

/** A response schema (schemas/api/*-response.json) for Fastify's serialiser. Its own copy without
 *  $id or messages: fast-json-stringify needs neither. */
export function apiResponse(set: SchemaSet, id: string): Record<string, unknown> {
  const schema = set.api[id];
  if (!schema) throw new Error(`No API schema ${id}`);
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === '$id' || key === 'errorMessage' || key === '$comment' ? undefined : value)));
}

export function installRouteValidation(app: FastifyInstance, validation: ServerValidation, fallbackMessage: string) {
  // Text from a URL becomes the numbers the schema asks for; nothing else is coerced.
  const coercing = createAjv({ coerceTypes: true });
  for (const schema of Object.values(validation.set.api)) coercing.addSchema(schema);

  app.setValidatorCompiler(({ schema }) => {
    const payload = (schema as Record<string, unknown>)[API_BODY];
    if (typeof payload === 'string') {
      return (data: unknown) => {
        const result = validation.parse(payload, data);
        if (result.ok) return { value: result.data };
        // A body that is not an object at all has nothing to show under a field.
        if (!result.fields || '' in result.fields) return { error: new ApiError('BAD_REQUEST') };
        return { error: new ApiError('VALIDATION', result.fields) };
      };
    }
    const id = (schema as { $id?: unknown }).$id;
    const validate = (typeof id === 'string' && coercing.getSchema(id)) || coercing.compile(schema);
    // A query string or flow the member never typed: the request is malformed (BAD_REQUEST),
    // and the schema's messages say which parameter and why.
    return (data: unknown) => {
      if (validate(data)) return { value: data };
      const fields = toFieldErrors(validate.errors, fallbackMessage);
      return { error: '' in fields ? new ApiError('BAD_REQUEST') : new ApiError('BAD_REQUEST', fields) };
    };
  });
}
