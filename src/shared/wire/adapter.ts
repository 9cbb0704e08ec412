// A wire adapter: what differs between a form's data and the payload its endpoint takes (a list
// sent as a comma-joined string, confirmations not sent, a field named differently). One per
// endpoint, used by the client before sending and by the server after receiving; the server
// then validates with the form's own schema. Which fields are lists, which are text and what
// is removed from valid data before it is sent and stored ("x-canonical": the hyphens of the
// postal code and phone) come from that schema, never from a list of names here.
import type { JsonObject } from '../validation/schema-bundle.ts';
import { fieldNodes } from '../validation/schema-nodes.ts';

export interface WireAdapter {
  /** Form data (and the payload's own fields, `extra`) → the payload's shape; `schema` is the
   *  form's. The client sends canonical() of it. */
  toWire?(form: Record<string, unknown>, extra: Record<string, unknown>, schema: JsonObject): Record<string, unknown>;
  /** Payload → form-shaped data (wire-only fields kept beside it). */
  fromWire(body: Record<string, unknown>, schema: JsonObject): Record<string, unknown>;
  /** A form field path with an error → the payload field to report it under, when they differ;
   *  null for a field fromWire derived from another (its errors are that field's). `body`: the
   *  payload as received (absent: the client's own payload, which never carries what toWire
   *  leaves out). */
  wireField?(path: string, body?: Record<string, unknown>): string | null;
  /** For the QA spec: form fields the payload carries as other fields (registration's one
   *  consent box as its three condition flags). */
  carriedBy?: Readonly<Record<string, readonly string[]>>;
  /** For the QA spec: form fields the payload may leave out (a confirmation: the browser checks
   *  it; the server checks it too when it is sent). */
  mayLeaveOut?: readonly string[];
  /** For the QA spec: every list travels as one comma-joined string of its codes. */
  joinsLists?: boolean;
}

/** `data` with every text field of the form that it lacks sent as '' (the specification's
 *  payloads carry an optional or unchosen text as empty; the server reads '' as not given). */
export function withEmptyTexts(schema: JsonObject, data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const [name, node] of Object.entries(fieldNodes(schema))) if (node.type === 'string' && out[name] === undefined) out[name] = '';
  return out;
}

/** Every list field of the form as one comma-joined string of its items. */
export function joinLists(schema: JsonObject, data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const [name, node] of Object.entries(fieldNodes(schema))) if (node.type === 'array' && Array.isArray(out[name])) out[name] = (out[name] as unknown[]).join(',');
  return out;
}

/** Every list field that arrived as a comma-joined string as its items ('' as none). */
export function splitLists(schema: JsonObject, data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const [name, node] of Object.entries(fieldNodes(schema))) if (node.type === 'array' && typeof out[name] === 'string') out[name] = (out[name] as string).split(',').filter(Boolean);
  return out;
}
