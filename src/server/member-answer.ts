// GET /v1/user/info's answer (and PUT's): schemas/api/user-info-response.json states the
// account's own properties (email, jobLabel), and "x-member-fields-of" names the forms whose
// member-record fields follow email, under their stored names, as they travel (a list as its
// comma-joined codes, an empty text as ''). The full schema is built once per schema set, so
// Fastify's compiled serialiser sends exactly those fields (docs/decisions/017, 020).
import type { Db } from './db/connect';
import type { User } from './db/types';
import { masterOptions, type MasterName } from './masters';
import { memberStore } from './member-store';
import { masterOf } from '../shared/validation/conditions';
import type { JsonObject } from '../shared/validation/schema-bundle';
import type { SchemaSet } from '../shared/validation/schema-files';
import type { MemberField } from '../shared/member-record';
import type { UserInfo } from '../shared/api-types';

export const USER_INFO_RESPONSE = 'api.user-info-response.json';

interface Answer {
  /** The response schema with the record's fields added (for Fastify's serialiser). */
  schema: Record<string, unknown>;
  fields: MemberField[];
  /** A single choice from an option list with a default (registration's job "1"): a saved value
   *  no longer in its list reads as the default (the specification's job and industry). */
  fallbacks: Array<{ name: string; master: string; value: string }>;
  /** A property that carries the label of another's saved choice ("x-label-of": jobLabel). */
  labels: Array<{ property: string; of: string; master: string }>;
}

const TYPES: Record<MemberField['kind'], string> = { text: 'string', list: 'string', flag: 'boolean', number: 'number' };

/** What a serialiser needs of a schema: no $id, messages, comments or annotations. */
function bare(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === '$id' || key === 'errorMessage' || key === '$comment' || key.startsWith('x-') ? undefined : v)));
}

function build(set: SchemaSet): Answer {
  const file = set.api[USER_INFO_RESPONSE];
  if (!file) throw new Error(`No API schema ${USER_INFO_RESPONSE}`);
  const { record } = memberStore(set);
  const forms = (file['x-member-fields-of'] as string[] | undefined) ?? [];
  const fields = [...new Set(forms.flatMap((form) => record.of(form).map(([, field]) => field)))];
  const own = (file.properties as Record<string, JsonObject> | undefined) ?? {};
  const required = (file.required as string[] | undefined) ?? [];
  const ownEntries = Object.entries(own);
  const properties = {
    ...Object.fromEntries(ownEntries.filter(([name]) => required.includes(name))),
    ...Object.fromEntries(fields.map((field) => [field.name, { type: TYPES[field.kind] }])),
    ...Object.fromEntries(ownEntries.filter(([name]) => !required.includes(name))),
  };
  const schema = {
    ...(bare(file) as Record<string, unknown>),
    properties: bare(properties),
    required: [...required, ...fields.filter((f) => f.kind === 'text' || f.kind === 'list').map((f) => f.name)],
  };
  const masterOfField = (field: MemberField) => masterOf(field.node, field.node);
  const fallbacks = fields
    .filter((field) => field.kind === 'text' && masterOfField(field) && field.default !== undefined)
    .map((field) => ({ name: field.name, master: masterOfField(field)!, value: String(field.default) }));
  const labels = ownEntries
    .filter(([, node]) => typeof node['x-label-of'] === 'string')
    .map(([property, node]) => {
      const of = record.field(node['x-label-of'] as string);
      const master = of && masterOfField(of);
      if (!master) throw new Error(`${USER_INFO_RESPONSE}: ${property} is x-label-of "${String(node['x-label-of'])}", not a member field with an option list`);
      return { property, of: of.name, master };
    });
  return { schema, fields, fallbacks, labels };
}

const ANSWERS = new WeakMap<SchemaSet, Answer>();

function answerOf(set: SchemaSet): Answer {
  let answer = ANSWERS.get(set);
  if (!answer) ANSWERS.set(set, (answer = build(set)));
  return answer;
}

/** The response schema of GET and PUT /v1/user/info, the record's fields included. */
export function userInfoSchema(set: SchemaSet): Record<string, unknown> {
  return answerOf(set).schema;
}

/** The member as GET /v1/user/info answers. */
export async function userInfo(ctx: { db: Db; schemas: SchemaSet }, user: User): Promise<UserInfo> {
  const answer = answerOf(ctx.schemas);
  const saved = memberStore(ctx.schemas).saved(user);
  const out: Record<string, unknown> = { email: user.email };
  for (const field of answer.fields) out[field.name] = saved[field.name];
  const masters = [...new Set([...answer.fallbacks, ...answer.labels].map((x) => x.master))];
  const lists = Object.fromEntries(await Promise.all(masters.map(async (name) => [name, await masterOptions(ctx.db, name as MasterName)] as const)));
  for (const { name, master, value } of answer.fallbacks) if (!lists[master].some((o) => o.value === out[name])) out[name] = value;
  for (const { property, of, master } of answer.labels) {
    const label = lists[master].find((o) => o.value === out[of])?.label;
    if (label !== undefined) out[property] = label;
  }
  return out as UserInfo;
}
