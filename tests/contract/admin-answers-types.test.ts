// The back office's answer types are made from their schemas (schemas/api/answers/admin.json):
// the committed src/shared/generated/admin-answers.ts is what npm run generate:api-types writes,
// and every admin route with a JSON answer is named by one schema entry.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerTypes, ANSWERS_TYPES } from '../../tools/generate-api-types';
import answers from '../../schemas/api/answers/admin.json';

describe('admin answer types', () => {
  it('src/shared/generated/admin-answers.ts is current (run npm run generate:api-types after changing schemas/api/answers/admin.json)', async () => {
    expect(readFileSync(ANSWERS_TYPES, 'utf8')).toBe(await answerTypes());
  });

  it('no route is named by two entries', () => {
    const named = Object.values(answers.$defs as Record<string, { 'x-routes'?: string[] }>).flatMap((def) => def['x-routes'] ?? []);
    expect(named.filter((route, i) => named.indexOf(route) !== i)).toEqual([]);
  });
});
