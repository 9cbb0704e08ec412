// A wire adapter: what differs between a form's data and the payload its endpoint takes
// (a list sent as a comma-joined string, hyphens removed, confirmations not sent, a field
// named differently). One per endpoint, used by the client before sending and by the server
// after receiving; the server then validates with the form's own schema.
export interface WireAdapter {
  /** Form data (and the payload's own fields, `extra`) → the payload's shape, before canonical(). */
  toWire?(form: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown>;
  /** Payload → form-shaped data (wire-only fields kept beside it). */
  fromWire(body: Record<string, unknown>): Record<string, unknown>;
  /** A form field path with an error → the payload field to report it under, when they differ;
   *  null for a field fromWire derived from another (its errors are that field's). */
  wireField?(path: string): string | null;
  /** Validated data → the form it is stored in (postal code and phone without hyphens). The
   *  client does the same before sending (the specification removes hyphens before submit). */
  canonical?(data: Record<string, unknown>): Record<string, unknown>;
}

/** Postal code and phone as stored: digits only (the schema has accepted their hyphens). */
export function withoutHyphens<T extends Record<string, unknown>>(data: T, removeHyphens: (text: string) => string): T {
  const out: Record<string, unknown> = { ...data };
  for (const name of ['zip_current', 'phone']) if (typeof out[name] === 'string') out[name] = removeHyphens(out[name] as string);
  return out as T;
}
