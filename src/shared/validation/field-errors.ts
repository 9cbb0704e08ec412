// Turns ajv errors (after ajv-errors) into `{ fieldPath: [message] }`, the shape the API
// answers with and the form engine shows under each field. ajv-errors reports a `required`
// message on the parent object; it belongs under the missing child, so it is moved there.
import type { ErrorObject } from 'ajv';

export type FieldErrors = Record<string, string[]>;

/** Keywords whose failure only restates a failure of something inside them. */
export const UNMESSAGED = new Set(['if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not', '$ref']);

/** For an ajv-errors `required` message, the child properties it is really about (one message
 *  may stand for several missing properties when the schema gives `required` a single string). */
export function missingChildren(keyword: string, params: unknown): string[] {
  const inner = keyword === 'errorMessage' ? ((params as { errors?: ErrorObject[] }).errors ?? []).map((e) => e.params) : [params];
  const names = inner.map((p) => (p as { missingProperty?: string } | undefined)?.missingProperty).filter((n): n is string => !!n);
  return [...new Set(names)];
}

/** The dotted paths ("purpose.0") an error belongs to; none for an error that only restates
 *  one of its children (the `if` wrapper around a failed `then`). */
export function errorPaths(error: ErrorObject): string[] {
  if (UNMESSAGED.has(error.keyword)) return [];
  const base = error.instancePath.split('/').filter(Boolean);
  const missing = missingChildren(error.keyword, error.params);
  return missing.length > 0 ? missing.map((name) => [...base, name].join('.')) : [base.join('.')];
}

/** True when ajv-errors supplied the message, i.e. it is one of ours, in Japanese. */
export function hasSchemaMessage(error: ErrorObject): boolean {
  return error.keyword === 'errorMessage';
}

export function toFieldErrors(errors: ErrorObject[] | null | undefined, fallback: string): FieldErrors {
  const fields: FieldErrors = {};
  for (const error of errors ?? []) {
    const message = hasSchemaMessage(error) && error.message ? error.message : fallback;
    for (const path of errorPaths(error)) {
      const list = (fields[path] ??= []);
      if (!list.includes(message)) list.push(message);
    }
  }
  return fields;
}
