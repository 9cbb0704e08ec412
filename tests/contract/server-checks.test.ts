// The forms' `x-server-checks` and what the server does agree: every declared check is one the
// server makes (src/server/server-checks.ts), with the answer it gives; every check of that
// table happens in the server's code (thrown through refusal(), an attempt counter's refusal,
// or a behaviour of a named file); and a declaration of a check the server does not make stops
// the server from starting, with a sentence that names the file.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSchemaSet } from '../../src/shared/validation/schema-files';
import { DEFAULT_LIMITS, limitShapes } from '../../src/server/limits/rate-limits';
import { assertDeclaredChecks, declaredCheckProblems, SERVER_CHECKS, type ServerCheckDef } from '../../src/server/server-checks';
import { copySchemas } from '../support/edited-schemas';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
const serverCode = sources(join(ROOT, 'src', 'server'))
  .filter((path) => !path.endsWith('server-checks.ts'))
  .map((path) => readFileSync(path, 'utf8'))
  .join('\n');

describe('x-server-checks names only what the server does', () => {
  it('every form\'s declarations are checks the server makes, with its answers', () => {
    expect(declaredCheckProblems(loadSchemaSet())).toEqual([]);
  });

  it.each(Object.entries(SERVER_CHECKS as Record<string, ServerCheckDef>))('%s happens in the server\'s code', (name, def) => {
    if (def.by === 'refusal') {
      // Thrown as refusal('<check>'), or its answer taken from the table where a map of refusals is built.
      expect(serverCode, `no refusal('${name}') in src/server`).toMatch(new RegExp(`refusal\\([^)]*'${name}'|SERVER_CHECKS\\.${name}\\.answer`));
    } else if ('limit' in def.by) {
      const shape = (limitShapes(DEFAULT_LIMITS, 10) as Record<string, { refusal: string }>)[def.by.limit];
      expect(shape, `no attempt counter "${def.by.limit}"`).toBeDefined();
      const own = serverCode.includes(`SERVER_CHECKS.${name}.answer`);
      expect(own || shape.refusal === def.answer, `counter "${def.by.limit}" answers ${shape.refusal}, not ${def.answer}`).toBe(true);
    } else {
      expect(existsSync(join(ROOT, def.by.behaviour)), def.by.behaviour).toBe(true);
    }
  });
});

describe('a declaration of a check the server does not make', () => {
  const copy = copySchemas();
  copy.edit('forms/withdraw.schema.json', (json) => {
    (json['x-server-checks'] as unknown[]).push({ check: 'passwordTooOld', field: 'password', answer: 'WRONG_PASSWORD' }, { check: 'wrongPassword', answer: 'LOGIN_FAILED' });
  });
  afterAll(() => copy.remove());

  it('stops the server from starting, naming the file and the fix', () => {
    expect(() => assertDeclaredChecks(loadSchemaSet(copy.schemasDir))).toThrow(
      [
        'schemas/forms/withdraw.schema.json x-server-checks: "passwordTooOld" is not a check the server makes (src/server/server-checks.ts lists those it makes)',
        'schemas/forms/withdraw.schema.json x-server-checks: "wrongPassword" answers WRONG_PASSWORD on the server, not LOGIN_FAILED',
      ].join('\n'),
    );
  });
});
