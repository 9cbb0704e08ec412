// The typed paths the screens link with are the catalogue's, regenerated: a stale file fails.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { generatePaths, PATHS_FILE } from '../../tools/generate-paths';
import catalogue from '../../schemas/catalogue.json';
import { paths } from '../../src/app/paths.generated';

it('src/app/paths.generated.ts is what the catalogue generates', () => {
  expect(readFileSync(PATHS_FILE, 'utf8')).toBe(generatePaths());
});

it('every catalogue route has exactly one path', () => {
  expect(Object.values(paths).sort()).toEqual(catalogue.routes.map((r) => `/${r.path}`).sort());
});
