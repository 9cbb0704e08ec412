// What the server checks of a form beyond its schema, for the spec's "only the server" table: a
// chosen option still in its list (every field with `x-master` of a form a payload carries:
// MASTER_UNKNOWN, src/server/masters.ts), then what the form declares in `x-server-checks`
// (`{ "check": "codeWrong", "field": "code", "answer": "CODE_INVALID" }`: what the server refuses
// with which API error, or says without one; the answer is the server's own, from
// src/server/server-checks.ts, which the server throws). The texts are messages/validation-spec.ja.json
// "server.checks"; the numbers in them are the server's defaults (src/server/config.ts).
import { loadConfig } from '../../src/server/config.ts';
import { masterFields } from '../../src/shared/validation/conditions.ts';
import type { JsonObject } from '../../src/shared/validation/schema-bundle.ts';
import { isObject } from './field-rules.ts';
import { declaredCheckProblems, SERVER_CHECKS } from '../../src/server/server-checks.ts';

export interface ServerCheck {
  /** The text's key in messages/validation-spec.ja.json "server.checks". */
  check: string;
  /** The field it is about (its label is shown), if any. */
  field?: string;
  /** The API error code (messages/ja.json "api") the member then reads; none: no error. */
  answer?: string;
  /** The option list, for MASTER_UNKNOWN. */
  master?: string;
}

/** The numbers the texts state, as the server has them with no environment set. */
export function serverNumbers(): Record<string, number> {
  const config = loadConfig({});
  return {
    ...config.limits,
    ipWindowMinutes: config.limits.ipWindowSeconds / 60,
    slowMaxSeconds: config.limits.slowMaxMs / 1000,
    codeTtlMinutes: config.codeTtlSeconds / 60,
    codeMaxAttempts: config.codeMaxAttempts,
    codesPerHour: config.codesPerHour,
    trustedDeviceDays: config.trustedDeviceDays,
    verifiedEmailMinutes: config.verifiedEmailSeconds / 60,
    registrationLinkHours: config.registrationLinkSeconds / 3600,
  };
}

/** The checks of form `schema` (bundled); `submitted`: a payload schema names it in x-forms. */
export function serverChecks(name: string, schema: JsonObject, submitted: boolean): ServerCheck[] {
  const masters: ServerCheck[] = submitted ? Object.entries(masterFields(schema)).map(([field, master]) => ({ check: 'masterUnknown', field, answer: 'MASTER_UNKNOWN', master })) : [];
  const declared = schema['x-server-checks'] ?? [];
  if (!Array.isArray(declared)) throw new Error(`${name}: x-server-checks must be a list`);
  const problems = declaredCheckProblems({ forms: { [name]: { schema } } } as never);
  if (problems.length) throw new Error(problems.join('\n'));
  return [
    ...masters,
    ...declared.map((entry: unknown) => {
      const ok = isObject(entry) && typeof entry.check === 'string' && ['field', 'answer'].every((k) => entry[k] === undefined || typeof entry[k] === 'string');
      if (!ok) throw new Error(`${name}: each x-server-checks entry is { "check": …, "field"?: …, "answer"?: … }, got ${JSON.stringify(entry)}`);
      // The answer is the server's (src/server/server-checks.ts), which the declaration may omit.
      const def = (SERVER_CHECKS as Record<string, { answer?: string }>)[String(entry.check)];
      return { ...(entry as unknown as ServerCheck), answer: def.answer };
    }),
  ];
}
