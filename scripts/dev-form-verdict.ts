// Dev only (registered by scripts/dev.ts, never by the production server): the server's verdict
// on a form's data, for the form review page at /user/_forms. It validates with the server's
// own ajv (src/server/validation.ts) and the form's schema as the server holds it, after the
// same normalisation the API applies to a payload (an empty field is not given), and answers with the field messages an
// API call would carry, without storing or sending anything.
import type { FastifyInstance } from 'fastify';
import messages from '../messages/ja.json';
import { ApiError } from '../src/server/errors';
import { createServerValidation } from '../src/server/validation';
import { normalise, withoutEmpty } from '../src/shared/normalise';
import { toFieldErrors, type FieldErrors } from '../src/shared/validation/field-errors';
import { loadSchemaSet } from '../src/shared/validation/schema-files';

export interface FormVerdict {
  valid: boolean;
  fields: FieldErrors;
}

/** Reads the schemas afresh on every call, so an edited schema is judged after a reload. */
export function formVerdict(name: string, data: unknown): FormVerdict | undefined {
  const set = loadSchemaSet();
  const form = set.forms[name];
  if (!form) return undefined;
  const validate = createServerValidation(set).ajv.getSchema(`form.${name}.json`);
  if (!validate) throw new Error(`The server holds no schema for form ${name}`);
  const input = data && typeof data === 'object' && !Array.isArray(data) ? withoutEmpty(form.schema, normalise(form.schema, data as Record<string, unknown>)) : data;
  const valid = validate(input) as boolean;
  return { valid, fields: valid ? {} : toFieldErrors(validate.errors, messages.form.fallbackFieldError) };
}

export function devFormRoutes(app: FastifyInstance) {
  app.post<{ Params: { name: string } }>('/v1/_dev/forms/:name/verdict', { config: { auth: 'client' } }, async (request) => {
    const verdict = formVerdict(request.params.name, request.body ?? {});
    if (!verdict) throw new ApiError('NOT_FOUND');
    return verdict;
  });
}
