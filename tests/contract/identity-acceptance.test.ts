// No member is locked out by the site's own rules (issue "Limits that stop attackers and never
// lock a member out", point 12): every e-mail address and phone number a form can store must be
// accepted by every form where a member types it again. Generated from the schemas: the storing
// forms' own patterns (fast-check), their examples and length limits, and the shapes of the
// addresses Japanese carriers issued (dots before @, dots in a row) give candidate values; those
// the storing forms accept (after their x-normalise, stored as the wire adapter stores them) are
// then typed into every checking form (after its own x-normalise) through the precompiled
// validators the browser runs, which the server shares (form-server-contract.test.ts).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import messages from '../../messages/ja.json';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { fieldNodes } from '../../src/shared/validation/schema-nodes';
import { ruleNodes } from '../../src/shared/validation/schema-refs';
import { isBackOfficeForm, loadSchemaSet } from '../../src/shared/validation/schema-files';
import { toFieldErrors } from '../../src/shared/validation/field-errors';
import { canonical, normalise, normalisersOf } from '../../src/shared/normalise';
import type { FormModule } from '../../src/engine/SchemaForm';
import { buildFormModule, validateWith } from '../support/forms';

type Kind = 'email' | 'phone';
const FALLBACK = messages.form.fallbackFieldError;
const set = loadSchemaSet();
// Members' forms: the back office's (admin-*) hold operators' addresses, which are not a member's
// identity (tests/api/admin-auth.test.ts covers them).
const forms = Object.keys(set.forms).filter((form) => !isBackOfficeForm(form)).sort();

/** Which fields hold an identity value: an e-mail address (canonical, the one spelling the site
 *  stores) or a phone number. Read from the schemas, so a new form with such a field is found. */
function kindOf(name: string, node: JsonObject): Kind | undefined {
  if (normalisersOf(node).includes('canonicalEmail')) return 'email';
  if (name === 'phone') return 'phone';
  return undefined;
}

/** Fields of `form` holding `kind`: typed, or carried read-only or hidden (they are checked too). */
function identityFields(form: string, kind: Kind): string[] {
  return Object.entries(fieldNodes(set.forms[form].schema))
    .filter(([name, node]) => kindOf(name, node) === kind)
    .map(([name]) => name);
}

/** Where a value is stored from (the server keeps what these forms accept). A source with two
 *  forms stores what both accept: the old flow's address passes e-mail authentication, then the
 *  old registration form that carries it. */
const STORED_FROM: Record<Kind, string[][]> = {
  email: [['register-email'], ['email-auth', 'old-register'], ['email-change']],
  phone: [['register-profile'], ['old-register'], ['edit-profile']],
};

/** Where a member types a stored value again, or a later step carries it (the reset's second
 *  step holds the address of the first, hidden; the e-mail change shows the current one). */
const TYPED_AGAIN: Record<Kind, string[]> = {
  email: ['login', 'old-login', 'reset-identity', 'reset-password', 'contact', 'email-change', 'register-email', 'email-auth'],
  phone: ['reset-identity', 'edit-profile'],
};

/** Mailbox domains of the Japanese carriers whose older addresses break RFC 5322's dot rules. */
const CARRIER_DOMAINS = ['docomo.ne.jp', 'ezweb.ne.jp', 'softbank.ne.jp', 'i.softbank.jp', 'au.com', 'disney.ne.jp'];
const CARRIER_LOCALS = ['taro..yamada.', 'Taro..Yamada.', '.taro', 'taro.', 'ta...ro', 'a.', 'hanako.-_.', 'x..y..z..'];

const modules = new Map<string, FormModule>();
beforeAll(async () => {
  for (const form of new Set([...Object.values(STORED_FROM).flat(2), ...Object.values(TYPED_AGAIN).flat()])) modules.set(form, await buildFormModule(form));
});

/** The field's messages for `data` as the form shows them (data normalised as the form does). */
function refusal(form: string, field: string, value: string): string[] | undefined {
  const module = modules.get(form)!;
  const data: Record<string, unknown> = { [field]: value };
  // The field and its confirmation (sameAs) get the same value; other fields are left out, so
  // that only this field's own rules judge it.
  const nodes = fieldNodes(set.forms[form].schema);
  for (const [name, node] of Object.entries(nodes)) if (node.sameAs === field || nodes[field].sameAs === name) data[name] = value;
  const normalised = normalise(module.schema as JsonObject, data);
  return toFieldErrors(validateWith(module, normalised).errors, FALLBACK)[field];
}

/** The value as the form leaves it (its x-normalise). */
function asLeft(form: string, field: string, value: string): string {
  return String(normalise(set.forms[form].schema, { [field]: value })[field]);
}

/** Candidate values at the edges of what `form`'s field takes. */
function candidates(form: string, field: string, kind: Kind): string[] {
  const nodes = ruleNodes(set.forms[form].schema, fieldNodes(set.forms[form].schema)[field]);
  // The field's length limit (a pattern alone may fix the length: then enumerate well past it).
  const limits = nodes.map((n) => n.maxLength).filter((n): n is number => typeof n === 'number');
  const maxLength = limits.length > 0 ? Math.min(...limits) : 20;
  const examples = nodes.flatMap((n) => (Array.isArray(n.examples) ? n.examples : [])).filter((v): v is string => typeof v === 'string');
  const out = new Set<string>(examples);
  // Values the field's own patterns generate (fixed seed: the same cases on every run).
  for (const pattern of nodes.map((n) => n.pattern).filter((p): p is string => typeof p === 'string')) {
    let arbitrary: fc.Arbitrary<string>;
    try {
      arbitrary = fc.stringMatching(new RegExp(pattern, 'u'));
    } catch {
      continue;
    }
    for (const value of fc.sample(arbitrary, { numRuns: 200, seed: 20261125 })) out.add(value);
  }
  if (kind === 'email') {
    for (const domain of CARRIER_DOMAINS) for (const local of CARRIER_LOCALS) out.add(`${local}@${domain}`);
    out.add('ｔａｒｏ．．ｙａｍａｄａ．＠ｄｏｃｏｍｏ．ｎｅ．ｊｐ');
    // At the length limit and one over, with the carrier shapes in the local part.
    for (const length of [maxLength - 1, maxLength, maxLength + 1]) {
      const domain = '@docomo.ne.jp';
      out.add(`${'a.'.repeat(length)}`.slice(0, length - domain.length) + domain);
      out.add(`${'a'.repeat(length - domain.length - 2)}..${domain}`);
    }
  } else {
    // Every digit count up to one over the limit, plain and in the groups members write.
    for (let digits = 1; digits <= maxLength + 1; digits += 1) {
      const number = `0${'9'.repeat(digits - 1)}`;
      out.add(number);
      out.add(number.replace(/^(\d{3})(\d{4})(\d+)$/, '$1-$2-$3'));
      out.add(number.replace(/^(\d{4})(\d+)$/, '$1-$2'));
      out.add(number.replace(/\d/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0)));
    }
  }
  return [...out];
}

interface Stored {
  source: string;
  /** As the member typed it at the source, left by its form (e.g. a phone with its hyphens). */
  typed: string;
  /** As the server stores it (the field's x-canonical: a phone without its hyphens). */
  stored: string;
}

/** Every candidate value a source accepts, as the member typed it and as it is stored. */
function storedValues(kind: Kind): Stored[] {
  const out: Stored[] = [];
  for (const source of STORED_FROM[kind]) {
    const [first] = source;
    const field = identityFields(first, kind)[0];
    const values = source.flatMap((form) => candidates(form, identityFields(form, kind)[0], kind));
    for (const value of new Set(values)) {
      if (source.some((form) => refusal(form, identityFields(form, kind)[0], value))) continue;
      const typed = asLeft(first, field, value);
      const stored = String(canonical(set.forms[first].schema, { [field]: typed })[field]);
      out.push({ source: source.join(' + '), typed, stored });
    }
  }
  return out;
}

describe('the identity fields are all accounted for', () => {
  it.each(['email', 'phone'] as const)('every form a member fills in a %s on stores it, checks it again, or both', (kind) => {
    const named = new Set([...STORED_FROM[kind].flat(), ...TYPED_AGAIN[kind]]);
    const found = forms.filter((form) => identityFields(form, kind).length > 0);
    expect(found.filter((form) => !named.has(form)), 'forms with such a field that this test does not classify').toEqual([]);
    expect([...named].filter((form) => !found.includes(form)), 'classified forms without such a field').toEqual([]);
  });
});

describe('stored ⊆ accepted: every value a form can store is accepted wherever a member types it again', () => {
  it.each(['email', 'phone'] as const)('%s', (kind) => {
    const stored = storedValues(kind);
    // The generator must reach the edges: carrier addresses and the longest numbers each source takes.
    expect(stored.length).toBeGreaterThan(50);
    if (kind === 'email') expect(stored.map((s) => s.stored)).toContain('taro..yamada.@docomo.ne.jp');
    const problems = new Set<string>();
    for (const form of TYPED_AGAIN[kind]) {
      for (const field of identityFields(form, kind)) {
        for (const { source, typed, stored: value } of stored) {
          for (const entered of new Set([value, typed])) {
            const refused = refusal(form, field, entered);
            if (refused) problems.add(`${source} stores ${JSON.stringify(value)}; ${form}.${field} refuses ${JSON.stringify(entered)}: ${refused.join(' / ')}`);
          }
        }
      }
    }
    expect([...problems].slice(0, 12), `${problems.size} refusals`).toEqual([]);
  });
});
