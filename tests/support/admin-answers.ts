// The back office's answers against their schemas (schemas/api/answers/admin.json): each entry
// names its routes (x-routes); answerCheck(route) validates what the server gave.
import Ajv from 'ajv';
import { readdirSync, readFileSync } from 'node:fs';
import answers from '../../schemas/api/answers/admin.json';

/** Routes whose 2xx answer is no JSON of ours: nothing (204), a file, or a library's own object
 *  (SimpleWebAuthn's options, typed by that library). */
export const NOT_OURS = new Set([
  'POST /v1/admin/logout',
  'POST /v1/admin/setup',
  'POST /v1/admin/password-reset/link',
  'POST /v1/admin/operators/:id/disable',
  'POST /v1/admin/operators/:id/setup-link',
  'DELETE /v1/admin/account/passkeys/:id',
  'GET /v1/admin/members/export.csv',
  'POST /v1/admin/account/passkeys/options',
  'POST /v1/admin/login/passkey/options',
]);

const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addSchema(answers);
const defs = answers.$defs as Record<string, { 'x-routes'?: string[] }>;

/** The $defs entry that states `route`'s answer, if any. */
export const answerOf = (route: string): string | undefined => Object.keys(defs).find((name) => defs[name]!['x-routes']?.includes(route));

/** The columns each list's declaration adds to its items (schemas/records/<kind>.json), by the
 *  list's route: a product owner adds a column in JSON and the answer carries it, so the items
 *  may hold those beside what the answer's schema states, and nothing else. */
const declared = new Map(
  readdirSync(new URL('../../schemas/records/', import.meta.url))
    .filter((file) => file.endsWith('.json') && !file.includes('.schema.'))
    .map((file) => JSON.parse(readFileSync(new URL(`../../schemas/records/${file}`, import.meta.url), 'utf8')) as { view: { route: string }; columns: Array<{ name: string }> })
    .map((kind) => [kind.view.route, kind.columns.map((column) => column.name)]),
);

/** Errors of `body` against `route`'s answer schema (empty: it is what the schema says). */
export function answerErrors(route: string, body: unknown): string[] {
  const name = answerOf(route);
  if (!name) return [`${route}: no entry of schemas/api/answers/admin.json names this route in x-routes`];
  const validate = ajv.getSchema(`api.answers.admin.json#/$defs/${name}`)!;
  const columns = declared.get(route);
  const stated = columns ? Object.keys(((answers.$defs as Record<string, { properties?: Record<string, unknown> }>)[itemOf(name)] ?? {}).properties ?? {}) : [];
  const checked =
    columns && body && typeof body === 'object' && Array.isArray((body as { items?: unknown }).items)
      ? { ...body, items: (body as { items: Array<Record<string, unknown>> }).items.map((item) => Object.fromEntries(Object.entries(item).filter(([key]) => stated.includes(key) || !columns.includes(key)))) }
      : body;
  return validate(checked) ? [] : (validate.errors ?? []).map((e) => `${name}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

/** The item entry of a page entry (ApplicationPage's items are ApplicationItem). */
const itemOf = (page: string): string => ((answers.$defs as Record<string, { properties?: { items?: { items?: { $ref?: string } } } }>)[page]?.properties?.items?.items?.$ref ?? '').split('/').pop() ?? '';

/** The route ("METHOD /v1/admin/…" with :params) an answer entry names for a request, if any. */
export function routeOf(method: string, url: string): string | undefined {
  const path = url.split('?')[0]!;
  // A fixed path before a pattern (members/export-columns before members/:id).
  const params = (route: string) => route.split(':').length;
  const routes = [...Object.values(defs).flatMap((def) => def['x-routes'] ?? []), ...NOT_OURS].sort((a, b) => params(a) - params(b));
  return routes.find((route) => {
    const [m, pattern] = route.split(' ');
    return m === method && new RegExp(`^${pattern!.replace(/:[^/]+/g, '[^/]+')}$`).test(path);
  });
}
