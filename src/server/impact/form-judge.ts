// Judges stored records with one form's schema, as the server's validator judges a payload, and
// counts what it refuses per field and rule, with two masked examples each.
import messages from '../../../messages/ja.json';
import texts from '../../../messages/impact.ja.json';
import type { FieldImpact, FormImpact, RuleImpact, StoredRecords } from '../../shared/impact';
import { format } from '../../shared/format';
import { normalise } from '../../shared/normalise';
import { masterOf } from '../../shared/validation/conditions';
import type { JsonObject } from '../../shared/validation/schema-bundle';
import { loadForm, loadMasterLists, type SchemaSet } from '../../shared/validation/schema-files';
import { fieldNodes, propertyBlocks } from '../../shared/validation/schema-nodes';
import type { ServerValidation } from '../validation';
import { maskValue } from './mask';
import { refusalsOf, type Refusal } from './refusals';
import { ruleWords } from './rule-words';

export interface JudgedForm {
  form: string;
  records: StoredRecords;
  /** The form whose shape the stored record is read in (the edit form for members). */
  readAs: string;
  /** Judge only the fields the stored record fills (the registration form's password and check
   *  box are not stored; a field added for new registrations is not asked of members). */
  storedFieldsOnly: boolean;
}

/** What is judged: the edit form (what an active member must pass to save their profile), the
 *  registration form on the fields a member has stored, and the contact form on the inquiries. */
export const JUDGED_FORMS: readonly JudgedForm[] = [
  { form: 'edit-profile', records: 'members', readAs: 'edit-profile', storedFieldsOnly: false },
  { form: 'register-profile', records: 'members', readAs: 'edit-profile', storedFieldsOnly: true },
  { form: 'contact', records: 'inquiries', readAs: 'contact', storedFieldsOnly: false },
];

const EXAMPLES = 2;

/** Each field of a form as written, with the shared definition it refers to (`$ref`). */
function refsOf(set: SchemaSet, name: string): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const block of propertyBlocks(loadForm(name, set.dir).schema)) {
    for (const [field, node] of Object.entries((block.properties as Record<string, JsonObject> | undefined) ?? {})) {
      if (!out.has(field) || typeof node.$ref === 'string') out.set(field, typeof node.$ref === 'string' ? node.$ref : out.get(field));
    }
  }
  return out;
}

/** Field of `form` → the field of `readAs` it is filled from: the same name, or else the one field
 *  of `readAs` that refers to the same shared definition (registration's last_name_alphabet is
 *  the edit form's last_name_alpha: both are fields.json#/$defs/alphabetFamilyName). */
export function storedSources(set: SchemaSet, form: string, readAs: string): Map<string, string> {
  const own = refsOf(set, form);
  const source = refsOf(set, readAs);
  const byRef = new Map<string, string[]>();
  for (const [field, ref] of source) if (ref) byRef.set(ref, [...(byRef.get(ref) ?? []), field]);
  const out = new Map<string, string>();
  for (const [field, ref] of own) {
    if (source.has(field)) out.set(field, field);
    else if (ref && byRef.get(ref)?.length === 1 && [...own.values()].filter((r) => r === ref).length === 1) out.set(field, byRef.get(ref)![0]);
  }
  return out;
}

function titleOf(set: SchemaSet, form: string): string {
  const routes = (set.catalogue.routes as Array<{ title: string; forms: string[] }> | undefined) ?? [];
  const titles = [...new Set(routes.filter((r) => r.forms.includes(form)).map((r) => r.title))];
  return titles.length ? titles.join(texts.titleSeparator) : form;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

interface RuleCount extends Refusal {
  refused: number;
  examples: string[];
}

export interface FormJudge {
  readonly spec: JudgedForm;
  /** Judges one stored record, given in the shape of `spec.readAs`. */
  judge(record: Record<string, unknown>): void;
  result(): FormImpact;
}

export function createFormJudge(validation: ServerValidation, spec: JudgedForm): FormJudge {
  const { set } = validation;
  const { schema, uiSchema } = set.forms[spec.form];
  const validate = validation.ajv.getSchema(`form.${spec.form}.json`);
  if (!validate) throw new Error(`The server holds no schema for form ${spec.form}`);
  const nodes = fieldNodes(schema);
  const order = [...new Set([...((uiSchema['ui:order'] as string[] | undefined) ?? []).filter((f) => f in nodes), ...Object.keys(nodes)])];
  const sources = spec.storedFieldsOnly ? storedSources(set, spec.form, spec.readAs) : new Map(order.map((f) => [f, f]));

  let judged = 0;
  let refused = 0;
  const rules = new Map<string, RuleCount>();
  const fields = new Map<string, number>();

  /** The stored record as this form's data. A field stored empty is not given, as in the form:
   *  the edit screen opens with an empty mileage number or "other" text absent (src/screens/edit
   *  toFormData), and an input the member empties leaves its field absent. So a rule that newly
   *  requires a field counts every member who stored it empty. (Every field a form requires
   *  today refuses '' anyway: there, only the message differs.) */
  const formData = (record: Record<string, unknown>) => {
    const data: Record<string, unknown> = {};
    for (const [field, from] of sources) if (from in record) data[field] = record[from];
    const normalised = normalise(schema, data);
    // An empty list is not given either (the check boxes hand over nothing): a member with no
    // purpose stored counts under "required", apart from one with too few ("minItems").
    for (const [field, value] of Object.entries(normalised)) if (value === '' || (Array.isArray(value) && value.length === 0)) delete normalised[field];
    return normalised;
  };

  /** A refused value as the report may show it: codes of a closed list as they are, anything a
   *  member typed masked, with its length. */
  const exampleOf = (field: string, value: unknown): string => {
    if (isEmpty(value)) return texts.empty;
    const node = nodes[field] ?? {};
    if (Array.isArray(node.enum) || masterOf(schema, node) || typeof value === 'boolean') return Array.isArray(value) ? value.join(',') : String(value);
    const masked = maskValue(value);
    return typeof value === 'string' ? format(texts.example, { masked, length: [...value].length }) : masked;
  };

  // A stored choice no longer in its option list (an entry removed from schemas/masters/
  // options.json): the server refuses it on save with MASTER_UNKNOWN, as the schema does not.
  const lists = loadMasterLists(set.dir);
  const offered = new Map(
    Object.entries(nodes)
      .map(([field, node]) => [field, masterOf(schema, node)] as const)
      .filter((entry): entry is readonly [string, string] => typeof entry[1] === 'string' && Array.isArray(lists[entry[1]]))
      .map(([field, master]) => [field, new Set(lists[master].map((o) => o.value))]),
  );
  const unlisted = (data: Record<string, unknown>): Refusal[] =>
    [...offered].flatMap(([field, values]) => {
      if (!sources.has(field) || data[field] === undefined) return [];
      const chosen = (Array.isArray(data[field]) ? (data[field] as unknown[]) : [data[field]]).map(String);
      const gone = chosen.filter((v) => !values.has(v));
      return gone.length ? [{ field, keyword: 'masterUnknown', value: gone.join(','), message: messages.api.MASTER_UNKNOWN }] : [];
    });

  return {
    spec,
    judge(record) {
      judged += 1;
      const data = formData(record);
      const valid = validate(data);
      const fromSchema = valid ? [] : refusalsOf(validate.errors, messages.form.fallbackFieldError);
      // The server asks the option list only of values the schema accepted: one refusal a field.
      const refusedBySchema = new Set(fromSchema.map((r) => r.field));
      const found = [...fromSchema, ...unlisted(data).filter((r) => !refusedBySchema.has(r.field))].filter((r) => sources.has(r.field));
      if (found.length === 0) return;
      refused += 1;
      for (const field of new Set(found.map((r) => r.field))) fields.set(field, (fields.get(field) ?? 0) + 1);
      for (const refusal of found) {
        const key = `${refusal.field}\u0000${refusal.keyword}\u0000${refusal.message}`;
        let count = rules.get(key);
        if (!count) rules.set(key, (count = { ...refusal, refused: 0, examples: [] }));
        count.refused += 1;
        if (count.examples.length < EXAMPLES) {
          const example = exampleOf(refusal.field, data[refusal.field]);
          if (!count.examples.includes(example)) count.examples.push(example);
        }
      }
    },
    result() {
      const labelOf = (field: string) => {
        const title = (uiSchema[field] as JsonObject | undefined)?.['ui:title'] ?? nodes[field]?.title;
        return typeof title === 'string' ? title : field;
      };
      const refusedFields: FieldImpact[] = [...fields.keys()]
        .sort((a, b) => (order.indexOf(a) + 1 || Infinity) - (order.indexOf(b) + 1 || Infinity))
        .map((field) => ({
          field,
          label: labelOf(field),
          refused: fields.get(field) ?? 0,
          ...((uiSchema[field] as JsonObject | undefined)?.['ui:readonly'] === true ? { needsMigration: true } : {}),
          rules: [...rules.values()]
            .filter((r) => r.field === field)
            .sort((a, b) => b.refused - a.refused)
            .map(({ keyword, value, description, message, refused: n, examples }): RuleImpact => ({
              keyword,
              ...(value === undefined ? {} : { value }),
              rule: ruleWords({ keyword, value, description }),
              message,
              refused: n,
              examples,
            })),
        }));
      return {
        form: spec.form,
        title: titleOf(set, spec.form),
        records: spec.records,
        storedFieldsOnly: spec.storedFieldsOnly,
        judged,
        refused,
        fields: refusedFields,
        judgedFields: order.filter((f) => sources.has(f)),
      };
    },
  };
}
