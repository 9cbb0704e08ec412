// docs/validation-spec.md is generated from the schemas (npm run spec). CI regenerates it and
// fails on any difference, so a schema change and its spec change arrive in one review; an edit of
// a limit, a message or a master option in JSON shows in the regenerated spec; and what it writes
// is what a QA lead needs: the rules a member can break from the screen in words (the regex only
// as a footnote), what only the server checks, each option list once, no table for a screen that
// only shows data. Every expectation is read from the schemas and messages/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import texts from '../../messages/validation-spec.ja.json';
import messages from '../../messages/ja.json';
import { format } from '../../src/shared/format';
import { fillMessage } from '../../src/shared/validation/message-params';
import { formNames, loadBundledForm, SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import type { JsonObject } from '../../src/shared/validation/schema-bundle';
import { fieldNodes } from '../../src/shared/validation/schema-nodes';
import { masterFields } from '../../src/shared/validation/conditions';
import { codeLengthOf } from '../../src/shared/validation/code-length';
import { loadConfig } from '../../src/server/config';
import { errorStatus } from '../../src/server/errors';
import { code, generateValidationSpec, SPEC_FILE } from '../../tools/validation-spec/render';
import { specOptions, specRow, specServerRows } from '../../tools/validation-spec/read';
import { copySchemas, type SchemasCopy } from '../support/edited-schemas';
import { rulesOf } from '../support/schema-messages';

const fill = (template: string, values: Record<string, unknown>) => format(template, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)])));
const [, , REQUIRED, , LIMITS, PATTERN, NORMALISE, OPTIONS, MESSAGES] = texts.columns;
const lines = (cell: string | undefined) => (cell ?? '').split('\n');
const messageLine = (keyword: keyof typeof texts.keywords, message: string) => fill(texts.message, { keyword: texts.keywords[keyword], message });
const readJson = <T,>(file: string) => JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8')) as T;
const catalogue = readJson<{ routes: Array<{ path: string; title: string; forms: string[]; readOnly?: boolean }> }>('catalogue.json');
const masters = readJson<Record<string, Array<{ value: string; label: string }>>>('masters/options.json');

describe('docs/validation-spec.md', () => {
  it('is what `npm run spec` generates from the committed schemas', () => {
    const committed = readFileSync(SPEC_FILE, 'utf8');
    const generated = generateValidationSpec();
    // A plain boolean first, so the failure says what to do rather than dumping two 40 kB texts.
    expect(committed === generated, 'docs/validation-spec.md is out of date with schemas/ or messages/: run `npm run spec` and commit the result').toBe(true);
  });

  it('is the same on every run (no clock, stable order)', () => {
    expect(generateValidationSpec()).toBe(generateValidationSpec());
  });
});

const PLACEHOLDER = '目的を{min}〜{max}文字で入力してください（テスト用）';

describe('the generated spec follows a JSON-only edit', () => {
  let copy: SchemasCopy;
  let edited: { minLength: number; maxLength: number; message: string; optionLabel: string; optionValue: string };

  beforeAll(() => {
    copy = copySchemas();
    copy.edit('forms/register-profile.schema.json', (json) => {
      const field = (json.properties as Record<string, JsonObject>).purpose_detail;
      field.maxLength = (field.maxLength as number) + 20;
      (field.errorMessage as JsonObject).maxLength = '{limit}文字までで入力してください（テスト用の文言）';
      edited = { minLength: field.minLength as number, maxLength: field.maxLength as number, message: fillMessage((field.errorMessage as JsonObject).maxLength as string, field, 'maxLength'), optionLabel: '', optionValue: '' };
    });
    // A placeholder that states the limits by parameter (as issue 9 asks of the real ones).
    copy.edit('forms/register-profile.ui.json', (json) => {
      (json.purpose_detail as JsonObject)['ui:placeholder'] = PLACEHOLDER;
    });
    copy.edit('masters/options.json', (json) => {
      const option = (json.purpose as Array<{ value: string; label: string }>)[0];
      option.label = 'テスト用の選択肢';
      Object.assign(edited, { optionLabel: option.label, optionValue: option.value });
    });
  });
  afterAll(() => copy?.remove());

  it('shows the new limit, the new message and the new option; the old ones are gone', () => {
    const before = specRow(generateValidationSpec(), 'register-profile', 'purpose_detail')!;
    const spec = generateValidationSpec(copy.schemasDir);
    const row = specRow(spec, 'register-profile', 'purpose_detail');
    expect(row, 'register-profile has a purpose_detail row').toBeDefined();
    // (The limits cell also says why the forms that store purpose_detail differ: x-why.)
    expect(lines(row![LIMITS])[0]).toBe(fill(texts.limits.length, { min: edited.minLength, max: edited.maxLength }));
    expect(edited.message).toBe(`${edited.maxLength}文字までで入力してください（テスト用の文言）`);
    expect(lines(row![MESSAGES])).toContain(messageLine('maxLength', edited.message));
    expect(before[MESSAGES]).not.toContain(edited.message);
    expect(before[LIMITS]).not.toBe(row![LIMITS]);

    const placeholder = fillMessage(PLACEHOLDER, { minLength: edited.minLength, maxLength: edited.maxLength });
    expect(placeholder).toContain(`${edited.minLength}〜${edited.maxLength}`);
    expect(lines(row![texts.columns[9]])).toContain(fill(texts.uiTexts['ui:placeholder'], { text: placeholder }));

    // The one list every form refers to follows, so the edit form's does too.
    expect(specOptions(spec, 'purpose')).toContainEqual({ [texts.optionColumns[0]]: code(edited.optionValue), [texts.optionColumns[1]]: edited.optionLabel });
    expect(specRow(spec, 'edit-profile', 'purpose')![OPTIONS]).toBe(fill(texts.masterRef, { name: code('purpose') }));
  });
});

describe('what the generator writes for a rule', () => {
  const spec = generateValidationSpec();
  const schema = readJson<JsonObject>('forms/register-profile.schema.json');
  const bundled = loadBundledForm('register-profile').schema;
  const ui = readJson<Record<string, JsonObject>>('forms/register-profile.ui.json');
  const rules = rulesOf('register-profile');

  it('a field required under an if/then says when, in words, with the option it depends on', () => {
    const branches = (schema.allOf as JsonObject[]).filter((b) => ((b.then as JsonObject).required as string[]).includes('industry_other'));
    expect(branches).toHaveLength(1);
    const [[field, test]] = Object.entries((branches[0].if as JsonObject).properties as Record<string, { const: string }>);
    const master = String(fieldNodes(bundled)[field]['x-master']);
    const option = masters[master].find((o) => o.value === test.const)!;
    const when = fill(texts.conditions.equals, { field: ui[field]['ui:title'], label: option.label, value: test.const });
    expect(specRow(spec, 'register-profile', 'industry_other')![REQUIRED]).toBe(fill(texts.required.conditional, { when }));
    expect(specRow(spec, 'register-profile', 'industry_other')![MESSAGES]).toContain(rules.required('industry_other'));
  });

  it('every form of a screen that takes input has a section, and every field of it a row; a screen that only shows data has none', () => {
    for (const route of catalogue.routes) {
      const section = `## ${route.title}（/user/${route.path}）`;
      if (route.readOnly || route.forms.length === 0) {
        expect(spec, route.path).not.toContain(section);
        continue;
      }
      expect(spec).toContain(section);
      for (const form of route.forms) {
        for (const field of Object.keys(readJson<JsonObject>(`forms/${form}.schema.json`).properties as JsonObject)) expect(specRow(spec, form, field), `${form}.${field}`).toBeDefined();
      }
    }
    const info = catalogue.routes.find((r) => r.readOnly);
    expect(info, 'the member info view is marked readOnly in the catalogue').toBeDefined();
    expect(spec).toContain(`| ${info!.title} | \`/user/${info!.path}\` | ${texts.access.member} | ${texts.readOnlyScreen} |`);
  });

  it('a code of fixed length reads as its number of digits', () => {
    const n = codeLengthOf(loadBundledForm('register-code').schema);
    for (const form of ['register-code', 'login-code', 'email-change-code']) expect(specRow(spec, form, 'code')![LIMITS], form).toBe(fill(texts.limits.exactDigits, { n }));
  });

  it('a pattern is written in words, its regex only in a footnote at the end', () => {
    const phone = fieldNodes(bundled).phone;
    const cell = specRow(spec, 'register-profile', 'phone')![PATTERN];
    const footnote = /\[\^(\d+)\]$/.exec(cell)?.[0];
    expect(cell).toBe(`${phone['x-pattern-description'] as string}${footnote}`);
    expect(cell).not.toContain(phone.pattern as string);
    expect(spec.split('\n')).toContain(`${footnote}: ${code(phone.pattern as string)}`);
  });

  it('leaves out messages the screen cannot make: a choice\'s code, the length an input stops at, a field the screen fills', () => {
    const messagesOf = (form: string, field: string) => lines(specRow(spec, form, field)![MESSAGES]);
    // A select offers only its options: no pattern message, only its required one.
    expect(messagesOf('register-profile', 'job')).toEqual([messageLine('required', rules.required('job'))]);
    expect(specRow(spec, 'register-profile', 'job')![PATTERN]).toBe(texts.empty);
    // Radio buttons that start on a choice cannot be emptied or left.
    expect(specRow(spec, 'register-profile', 'gender')![MESSAGES]).toBe(texts.empty);
    // A text input stops at its maxlength (the limit is still stated); a textarea does not.
    expect(messagesOf('register-profile', 'last_name_kanji')).not.toContain(messageLine('maxLength', rules.message('last_name_kanji', 'maxLength')));
    expect(specRow(spec, 'register-profile', 'last_name_kanji')![LIMITS]).toBe(fill(texts.limits.maxLength, { max: rules.limit('last_name_kanji', 'maxLength') }));
    expect(messagesOf('register-profile', 'purpose_detail')).toContain(messageLine('maxLength', rules.message('purpose_detail', 'maxLength')));
    // No widget hands over a value of another type.
    expect(messagesOf('register-profile', 'address_current')).not.toContain(messageLine('type', rules.message('address_current', 'type')));
    // The edit form's birthday is shown, not typed.
    expect(specRow(spec, 'edit-profile', 'birthday')![MESSAGES]).toBe(texts.empty);
  });

  it('gives each option list once, at the end, and refers to it from every field that draws from it', () => {
    for (const [name, options] of Object.entries(masters).filter(([key]) => !key.startsWith('$'))) {
      if (!spec.includes(fill(texts.masterRef, { name: code(name) }))) continue;
      expect(specOptions(spec, name).map((row) => Object.values(row))).toEqual(options.map((o) => [code(o.value), o.label]));
      expect(spec.split(`### ${fill(texts.masterHeading, { name: code(name) })}\n`), `${name} is listed once`).toHaveLength(2);
    }
    const job = specRow(spec, 'register-profile', 'job')![OPTIONS];
    const initial = masters.job.find((o) => o.value === fieldNodes(bundled).job.default)!;
    expect(lines(job)).toEqual([fill(texts.masterRef, { name: code('job') }), fill(texts.defaultOption, { option: fill(texts.option, initial) })]);
  });

  it('a pattern with a backtick still makes one code span', () => {
    expect(code('[!-/:-@\\[-`{-~]')).toBe('``[!-/:-@\\[-`{-~]``');
    expect(code('`x')).toBe('`` `x ``');
  });
});

describe('what only the server checks', () => {
  const spec = generateValidationSpec();
  const config = loadConfig({});
  const answers = (form: string) => specServerRows(spec, form).map((row) => row[texts.server.columns[2]]);
  const answer = (code_: keyof typeof messages.api) => fill(texts.server.answer, { message: messages.api[code_], code: code(code_) });

  it('an option not in its list, for every field of a submitted form that draws from one', () => {
    const fields = masterFields(loadBundledForm('edit-profile').schema);
    expect(Object.keys(fields).length).toBeGreaterThan(0);
    const rows = specServerRows(spec, 'edit-profile').filter((row) => row[texts.server.columns[2]] === answer('MASTER_UNKNOWN'));
    expect(rows).toHaveLength(Object.keys(fields).length);
  });

  it('an address already taken, the attempt limits, and the code a trusted device may leave out', () => {
    expect(answers('register-profile')).toContain(answer('EMAIL_TAKEN'));
    expect(answers('email-change-code')).toContain(answer('EMAIL_TAKEN'));
    expect(answers('login-code')).toEqual(expect.arrayContaining([answer('TOO_MANY_ATTEMPTS'), answer('CODE_LOCKED'), answer('CODE_RATE_LIMITED'), answer('CODE_REQUIRED'), texts.server.noError]));
    const optional = specServerRows(spec, 'login-code').find((row) => row[texts.server.columns[2]] === texts.server.noError)!;
    expect(optional[texts.server.columns[1]]).toBe(fill(texts.server.checks.codeOptional, { trustedDeviceDays: config.trustedDeviceDays }));
    expect(answers('login')).toEqual(expect.arrayContaining([answer('LOGIN_FAILED'), answer('TOO_MANY_ATTEMPTS'), answer('CODE_RATE_LIMITED')]));
  });

  it('every error the API can answer is either in some form\'s table or not about what a member types', () => {
    // Not rules of a form: the schema's own messages (VALIDATION), requests the screen never
    // makes, the session (a member's or an operator's), outages, and the back office's buttons
    // that send no form (disable an operator, a new set-up link).
    const notFormRules = [
      'VALIDATION', 'BAD_REQUEST', 'CLIENT_KEY_INVALID', 'UNAUTHENTICATED', 'SESSION_EXPIRED', 'SESSION_LIMIT', 'NOT_FOUND', 'REQUEST_TIMEOUT', 'MAIL_FAILED', 'INTERNAL', 'DB_UNAVAILABLE',
      'ADMIN_UNAUTHENTICATED', 'FORBIDDEN', 'CSRF_INVALID', 'OPERATOR_DISABLED', 'OPERATOR_SELF', 'SETUP_MAIL_FAILED',
      // the back office's answers about the state of a record an operator acts on
      'RECORD_NOT_FOUND', 'ALREADY_DECIDED', 'DECIDED_MEANWHILE', 'NOT_DECIDED', 'MEMBER_WITHDRAWN', 'NOTICE_RETRACTED', 'INQUIRY_CLOSED', 'ALREADY_ANSWERED', 'NOT_ANSWERED', 'CHANGED_MEANWHILE',
      // the authenticator's answer to a passkey challenge, nothing a member types (docs/decisions/031)
      'PASSKEY_FAILED',
    ];
    // Every form has its table in the spec, on a screen's page or among the forms on none yet.
    const listed = new Set(formNames().flatMap((form) => answers(form)));
    const missing = Object.keys(errorStatus).filter((c) => !notFormRules.includes(c) && !listed.has(answer(c as keyof typeof messages.api)));
    expect(missing, 'declare them in the form schema\'s x-server-checks (tools/validation-spec/server-checks.ts)').toEqual([]);
  });
});

describe('x-master, x-normalise and x-pattern-description (what the generator reads from a field)', () => {
  let copy: SchemasCopy;
  beforeAll(() => {
    copy = copySchemas();
    copy.edit('forms/login.schema.json', (json) => {
      (json.properties as Record<string, JsonObject>).password['x-normalise'] = ['trim', 'toHalfWidth'];
    });
    copy.edit('forms/withdraw.schema.json', (json) => {
      (json.properties as Record<string, JsonObject>).reason['x-master'] = 'job';
    });
  });
  afterAll(() => copy?.remove());

  it('the row names the normalisers in words and refers to the master\'s list', () => {
    const spec = generateValidationSpec(copy.schemasDir);
    expect(specRow(generateValidationSpec(), 'login', 'password')![NORMALISE]).toBe(texts.empty);
    expect(lines(specRow(spec, 'login', 'password')![NORMALISE])).toEqual([texts.normalisers.trim, texts.normalisers.toHalfWidth]);
    expect(specRow(generateValidationSpec(), 'withdraw', 'reason')![OPTIONS]).toBe(texts.empty);
    expect(specRow(spec, 'withdraw', 'reason')![OPTIONS]).toBe(fill(texts.masterRef, { name: code('job') }));
    expect(specOptions(spec, 'job')).toHaveLength(masters.job.length);
  });

  it('an unknown normaliser or a pattern without words stops the generator, saying where to write them', () => {
    copy.edit('forms/withdraw.schema.json', (json) => {
      (json.properties as Record<string, JsonObject>).reason['x-normalise'] = ['noSuchNormaliser'];
    });
    expect(() => generateValidationSpec(copy.schemasDir)).toThrow(/noSuchNormaliser.*messages\/validation-spec\.ja\.json/);
    copy.edit('forms/withdraw.schema.json', (json) => {
      const reason = (json.properties as Record<string, JsonObject>).reason;
      reason['x-normalise'] = ['trim'];
      reason.pattern = '^[^x]*$';
    });
    expect(() => generateValidationSpec(copy.schemasDir)).toThrow(/\^\[\^x\]\*\$.*reason.*x-pattern-description/);
  });
});

// ---------------------------------------------------------------------------------------------
// What QA needs to test the API from the spec (issue 36)

describe('the spec says where a rule is checked, the key a field travels under and what a stranded member reads', () => {
  const spec = generateValidationSpec();
  const WIRE = texts.columns[10];
  const wire = (form: string, field: string) => specRow(spec, form, field)?.[WIRE];

  it('the registration code travels as key (the specification\'s POST /v1/email/verify {key})', () => {
    expect(wire('register-code', 'code')).toBe(fill(texts.wire.both, { key: code('key') }));
  });

  it('a confirmation the payload leaves out is the screen\'s, and the server\'s when sent', () => {
    expect(wire('reset-password', 'new_password_confirm')).toBe(fill(texts.wire.mayLeaveOut, { key: code('new_password_confirm') }));
    expect(wire('register-profile', 'password_confirm')).toBe(fill(texts.wire.both, { key: code('password_confirm') }));
  });

  it('the edit form lists the length message a member whose saved address grew too long reads on opening it', () => {
    const rules = rulesOf('edit-profile');
    const message = messageLine('maxLength', rules.message('address_current', 'maxLength'));
    expect(lines(specRow(spec, 'edit-profile', 'address_current')?.[MESSAGES])).toContain(fill(texts.storedOnly, { text: message }));
    // Registration opens empty: nothing saved can break its rules.
    expect(specRow(spec, 'register-profile', 'address_current')?.[MESSAGES]).not.toContain(fill(texts.storedOnly, { text: message }));
  });

  it('purpose_other\'s two ranges carry the schema\'s reason on both forms', () => {
    const why = (form: string) => lines(specRow(spec, form, 'purpose_other')?.[LIMITS]).find((line) => line.startsWith(fill(texts.why, { text: '' })));
    expect(why('edit-profile')).toBeDefined();
    expect(why('register-profile')).toBe(why('edit-profile'));
  });

  it('stops while two forms store one value under different limits with no reason', () => {
    const copy = copySchemas();
    try {
      copy.edit('forms/edit-profile.schema.json', (json) => {
        const then = ((json.allOf as JsonObject[])[1].then as JsonObject).properties as Record<string, JsonObject>;
        delete then.purpose_other['x-why'];
      });
      expect(() => generateValidationSpec(copy.schemasDir)).toThrow(/"purpose_other" has different limits .* add "x-why"/);
    } finally {
      copy.remove();
    }
  });
});
