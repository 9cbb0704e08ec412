// Turns ajv errors (after ajv-errors) into `{ fieldPath: [message] }`, the shape the API
// answers with and the form engine shows under each field. ajv-errors reports a `required`
// message on the parent object; it belongs under the missing child, so it is moved there.
import type { ErrorObject } from 'ajv';

export type FieldErrors = Record<string, string[]>;

/** Keywords whose failure only restates a failure of something inside them. */
export const UNMESSAGED = new Set(['if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not', '$ref']);

/** For an ajv-errors `required` message, the child property it is really about. */
export function missingChild(keyword: string, params: unknown): string | undefined {
  const inner = keyword === 'errorMessage' ? (params as { errors?: ErrorObject[] }).errors?.[0]?.params : params;
  return (inner as { missingProperty?: string } | undefined)?.missingProperty;
}

/** The dotted path ("purpose.0") a single error belongs to, or null for an error that only
 *  restates one of its children (the `if` wrapper around a failed `then`). */
export function errorPath(error: ErrorObject): string | null {
  if (UNMESSAGED.has(error.keyword)) return null;
  const base = error.instancePath.split('/').filter(Boolean);
  const missing = missingChild(error.keyword, error.params);
  if (missing) base.push(missing);
  return base.join('.');
}

/** True when ajv-errors supplied the message, i.e. it is one of ours, in Japanese. */
export function hasSchemaMessage(error: ErrorObject): boolean {
  return error.keyword === 'errorMessage';
}

export function toFieldErrors(errors: ErrorObject[] | null | undefined, fallback: string): FieldErrors {
  const fields: FieldErrors = {};
  for (const error of errors ?? []) {
    const path = errorPath(error);
    if (path === null) continue;
    const message = hasSchemaMessage(error) && error.message ? error.message : fallback;
    const list = (fields[path] ??= []);
    if (!list.includes(message)) list.push(message);
  }
  return fields;
}
