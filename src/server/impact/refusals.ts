// One stored record's ajv errors (after ajv-errors) as refusals: the top-level field each is on,
// the keyword that failed with its value, and the message a member sees. The paths and messages
// are read as the server reads them for a 400 (src/shared/validation/field-errors.ts).
import type { ErrorObject } from 'ajv';
import { errorPaths, hasSchemaMessage } from '../../shared/validation/field-errors';

export interface Refusal {
  field: string;
  keyword: string;
  /** The keyword's value where it says something (a limit, a pattern, a list). */
  value?: unknown;
  /** The pattern in words (the schema's x-pattern-description), when it has one. */
  description?: string;
  message: string;
}

/** The keyword's value from the error's params (ajv names it per keyword). */
function valueOf(cause: ErrorObject): unknown {
  const params = cause.params as Record<string, unknown>;
  for (const name of ['limit', 'pattern', 'format', 'allowedValues', 'allowedValue', 'type']) if (name in params) return params[name];
  return undefined;
}

/** The failures an error stands for: ajv-errors keeps the original errors in its params. */
function causesOf(error: ErrorObject): ErrorObject[] {
  return hasSchemaMessage(error) ? ((error.params as { errors?: ErrorObject[] }).errors ?? []) : [error];
}

/** Every distinct refusal in `errors`; `fallback` is the message of an error the schema gives none. */
export function refusalsOf(errors: ErrorObject[] | null | undefined, fallback: string): Refusal[] {
  const out = new Map<string, Refusal>();
  for (const error of errors ?? []) {
    const message = hasSchemaMessage(error) && error.message ? error.message : fallback;
    for (const path of errorPaths(error)) {
      const missing = path.split('.').at(-1);
      for (const cause of causesOf(error)) {
        // One `required` message may stand for several missing fields: each path takes its own.
        if (cause.keyword === 'required' && (cause.params as { missingProperty?: string }).missingProperty !== missing) continue;
        const field = path.split('.')[0] || cause.keyword;
        const description = (cause.parentSchema as Record<string, unknown> | undefined)?.['x-pattern-description'];
        const refusal: Refusal = {
          field,
          keyword: cause.keyword,
          value: valueOf(cause),
          ...(cause.keyword === 'pattern' && typeof description === 'string' ? { description } : {}),
          message,
        };
        // An array's items fail one by one (purpose.0, purpose.2): the field is refused once.
        out.set(`${field}\u0000${cause.keyword}\u0000${message}`, refusal);
      }
    }
  }
  return [...out.values()];
}
