// A field's messages from its own precompiled validator (tools/field-schemas.ts: the form's schema
// with everything about other fields left out), on the form's data as it will be sent: what a
// text field shows for each key without the whole form re-running (ADR 028).
import messages from '../../messages/ja.json';
import { normalise } from '../shared/normalise';
import type { JsonObject } from '../shared/validation/schema-bundle';
import type { ErrorObject } from 'ajv';
import { toFieldErrors } from '../shared/validation/field-errors';

/** A field's standalone validator, as the build generates it. */
export type FieldValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

interface FieldValidated {
  schema: object;
  fieldValidateFns?: Record<string, FieldValidator>;
}

/** The messages for top-level field `name` in `data` (normalised first, as it will be sent), in
 *  the order the form shows them; undefined when the field has no validator of its own (a field
 *  chosen from a list, not typed). */
export function fieldMessages(form: FieldValidated, name: string, data: Record<string, unknown>): string[] | undefined {
  const validate = form.fieldValidateFns?.[name];
  if (!validate) return undefined;
  if (validate(normalise(form.schema as JsonObject, data))) return [];
  return toFieldErrors(validate.errors, messages.form.fallbackFieldError)[name] ?? [];
}
