// What the server checks beyond a form's schema, each by the name a form's `x-server-checks`
// declares it under, with the API error it answers (none: it refuses nothing, it behaves). The
// server throws these refusals through `refusal(<check>)`, and an attempt limit's refusal is its
// counter's (limits/rate-limits.ts); so the answer a form declares is the one this table gives
// and the code throws. At start-up `assertDeclaredChecks` refuses schemas whose declarations
// name a check the server does not make, or another answer; the QA spec takes its rows from
// here (tools/validation-spec/server-checks.ts), so it cannot list a check that does not happen.
import type { ErrorCode } from './errors';
import { ApiError } from './errors';
import type { FieldErrors } from '../shared/validation/field-errors';
import type { LimitKind } from './limits/rate-limits';
import type { SchemaSet } from '../shared/validation/schema-files';
import { fieldNodes } from '../shared/validation/schema-nodes';

export interface ServerCheckDef {
  /** The API error the member then reads; absent: no error (a behaviour the spec describes). */
  answer?: ErrorCode;
  /** Where it happens: thrown through refusal(); an attempt counter's refusal; or a behaviour
   *  of the named source file (no error to throw). */
  by: 'refusal' | { limit: LimitKind } | { behaviour: string };
}

export const SERVER_CHECKS = {
  masterUnknown: { answer: 'MASTER_UNKNOWN', by: { behaviour: 'src/server/masters.ts' } },
  emailTaken: { answer: 'EMAIL_TAKEN', by: 'refusal' },
  emailTakenAtRegistration: { answer: 'EMAIL_TAKEN', by: 'refusal' },
  emailTakenNoOracle: { by: { behaviour: 'src/server/routes/registration.ts' } },
  verificationRequired: { answer: 'VERIFICATION_REQUIRED', by: 'refusal' },
  linkInvalid: { answer: 'LINK_INVALID', by: 'refusal' },
  codeLinkInvalid: { answer: 'CODE_LINK_INVALID', by: 'refusal' },
  codeOptional: { by: { behaviour: 'src/server/routes/user-auth.ts' } },
  codeRequired: { answer: 'CODE_REQUIRED', by: 'refusal' },
  codeWrong: { answer: 'CODE_INVALID', by: 'refusal' },
  codeTries: { answer: 'CODE_LOCKED', by: 'refusal' },
  codeFailures: { answer: 'TOO_MANY_ATTEMPTS', by: { limit: 'code' } },
  codeMails: { answer: 'CODE_RATE_LIMITED', by: { limit: 'recipient' } },
  networkMails: { answer: 'CODE_RATE_LIMITED', by: { limit: 'network' } },
  linkMails: { answer: 'LINK_RATE_LIMITED', by: { limit: 'recipient' } },
  earliestCodeMails: { answer: 'CODE_RATE_LIMITED', by: { limit: 'earliestRecipient' } },
  earliestUnknownAddress: { by: { behaviour: 'src/server/routes/user-auth.ts' } },
  loginFailed: { answer: 'LOGIN_FAILED', by: 'refusal' },
  passwordFailures: { answer: 'TOO_MANY_ATTEMPTS', by: { limit: 'password' } },
  passwordSlowDown: { by: { behaviour: 'src/server/routes/user-auth.ts' } },
  identityFailed: { answer: 'IDENTITY_FAILED', by: 'refusal' },
  identityFailures: { answer: 'TOO_MANY_ATTEMPTS', by: 'refusal' },
  wrongPassword: { answer: 'WRONG_PASSWORD', by: 'refusal' },
  contactAcknowledgements: { by: { behaviour: 'src/server/routes/contact.ts' } },
  operatorLoginFailed: { answer: 'LOGIN_FAILED', by: 'refusal' },
  operatorPasswordFailures: { answer: 'TOO_MANY_ATTEMPTS', by: { limit: 'password' } },
  operatorPasswordCap: { answer: 'TOO_MANY_ATTEMPTS', by: 'refusal' },
  operatorExists: { answer: 'OPERATOR_EXISTS', by: 'refusal' },
  operatorSetupLinkInvalid: { answer: 'LINK_INVALID', by: 'refusal' },
  operatorResetNoOracle: { by: { behaviour: 'src/server/admin/routes/auth.ts' } },
} as const satisfies Record<string, ServerCheckDef>;

export type ServerCheckName = keyof typeof SERVER_CHECKS;
type Refusing = { [K in ServerCheckName]: (typeof SERVER_CHECKS)[K] extends { by: 'refusal' } ? K : never }[ServerCheckName];

/** The error a check answers with (its fields, if the answer puts a message under one). */
export function refusal(check: Refusing, fields?: FieldErrors): ApiError {
  return new ApiError(SERVER_CHECKS[check].answer, fields);
}

/** What is wrong with the schemas' `x-server-checks` against this table (empty when nothing):
 *  each sentence names the form file and what to change. */
export function declaredCheckProblems(set: Pick<SchemaSet, 'forms'>): string[] {
  const problems: string[] = [];
  const table = SERVER_CHECKS as Record<string, ServerCheckDef>;
  for (const [form, { schema }] of Object.entries(set.forms)) {
    const declared = schema['x-server-checks'];
    if (declared === undefined) continue;
    const where = `schemas/forms/${form}.schema.json x-server-checks`;
    if (!Array.isArray(declared)) {
      problems.push(`${where} must be a list`);
      continue;
    }
    const fields = fieldNodes(schema);
    for (const entry of declared as Array<Record<string, unknown>>) {
      const def = table[String(entry?.check)];
      if (!def) {
        problems.push(`${where}: "${String(entry?.check)}" is not a check the server makes (src/server/server-checks.ts lists those it makes)`);
        continue;
      }
      if (entry.answer !== undefined && entry.answer !== def.answer) {
        problems.push(`${where}: "${String(entry.check)}" answers ${def.answer ?? 'no error'} on the server, not ${String(entry.answer)}`);
      }
      if (entry.field !== undefined && !(String(entry.field) in fields)) problems.push(`${where}: "${String(entry.check)}" names the field "${String(entry.field)}", which the form does not have`);
    }
  }
  return problems;
}

/** Start-up: the schemas may only declare checks this server makes, with the answers it gives. */
export function assertDeclaredChecks(set: Pick<SchemaSet, 'forms'>): void {
  const problems = declaredCheckProblems(set);
  if (problems.length) throw new Error(`The schemas declare server checks this server does not make:\n${problems.join('\n')}`);
}
