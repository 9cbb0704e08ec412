// What `npm run impact` (src/server/impact/) finds when it judges the stored data with a set of
// schemas, and what the dev-only review page (/user/_forms) reads from its endpoint: per form,
// field and rule, how many stored records the rule refuses, with masked examples.

/** What a form is judged against: the active members' stored profiles, or the stored inquiries. */
export type StoredRecords = 'members' | 'inquiries';

export interface RuleImpact {
  /** The JSON Schema keyword that fails (minLength, pattern, required…). */
  keyword: string;
  /** The keyword's value where it is a limit, pattern or list (20, "^…$", ["male", …]). */
  value?: unknown;
  /** The rule in words (Japanese, messages/impact.ja.json "rules"). */
  rule: string;
  /** The message a member sees for it, exactly as the schema gives it. */
  message: string;
  /** Stored records this rule refuses. */
  refused: number;
  /** Up to two refused values, masked (no personal data). */
  examples: string[];
}

export interface FieldImpact {
  field: string;
  label: string;
  /** Stored records refused on this field (by any of its rules, each counted once). */
  refused: number;
  rules: RuleImpact[];
  /** The member cannot change the field on the form (ui:readonly, the birthday): the stored
   *  values it refuses need a data migration, not the member. */
  needsMigration?: boolean;
}

export interface FormImpact {
  form: string;
  /** The titles of the screens that show the form (schemas/catalogue.json). */
  title: string;
  records: StoredRecords;
  /** Only the fields the stored record has are judged (the registration form's password and
   *  check box are not stored). */
  storedFieldsOnly: boolean;
  judged: number;
  /** Stored records refused on at least one field. */
  refused: number;
  /** Fields with at least one refusal, in the form's order. */
  fields: FieldImpact[];
  /** Every field that was judged (with or without refusals), in the form's order. */
  judgedFields: string[];
}

export interface ImpactReport {
  schemasDir: string;
  /** Which database was read (no credentials). */
  database: string;
  forms: FormImpact[];
  /** True when any stored record is refused by any form. */
  failed: boolean;
  elapsedMs: number;
}

/** GET /v1/_dev/forms/:name/impact (npm run dev only): one form's impact, with the texts the
 *  review page shows above the form and beside each judged field. */
export interface StoredImpactAnswer {
  /** null: the form is not judged against stored data (no stored record is in its shape). */
  impact: FormImpact | null;
  summary?: string;
  /** Field → the note shown beside it. */
  notes?: Record<string, string>;
}
