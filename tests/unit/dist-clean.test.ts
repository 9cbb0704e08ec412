// The client bundle runs under a CSP without 'unsafe-eval': no ajv compiler and no code
// generation at run time. Builds the client (as `npm run build` does, into a temporary folder,
// since `npm test` runs the unit tests before the build) and scans every emitted script.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What ajv's compiler or run-time code generation would leave in the bundle. */
const FORBIDDEN: Array<[string, RegExp]> = [
  ['new Function', /new\s+Function\s*\(/],
  ['eval(', /(?<![\w$.])eval\s*\(/],
  ['Function("…") / Function(`…`)', /(?<![\w$.])Function\s*\(\s*["'`]/],
  ['ajv compileAsync', /compileAsync/],
  ['ajv addKeyword(', /addKeyword\(/],
  ['ajv addMetaSchema(', /addMetaSchema\(/],
  ['ajv code generator', /validateFunctionCode|\$async|ajv\/dist\/compile/],
];

let outDir: string;
let scripts: Array<{ file: string; code: string }>;

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'member-site-dist-'));
  await build({
    root: ROOT,
    configFile: join(ROOT, 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true, sourcemap: false, reportCompressedSize: false },
  });
  scripts = listFiles(outDir)
    .filter((f) => /\.(m?js|cjs)$/.test(f))
    .map((file) => ({ file: file.slice(outDir.length + 1), code: readFileSync(file, 'utf8') }));
}, 60_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('client bundle', () => {
  it('was built, with the precompiled form validators in it', () => {
    expect(readdirSync(outDir)).toContain('index.html');
    expect(scripts.length).toBeGreaterThan(0);
    // the login-code form's schema message reaches the bundle, so the validators are in it
    expect(scripts.some(({ code }) => code.includes('認証コードは5桁の数字で入力してください'))).toBe(true);
  });

  it('the markers would catch ajv’s compiler, were it bundled', () => {
    const ajvCompiler = ['node_modules/ajv/dist/core.js', 'node_modules/ajv/dist/compile/index.js'].map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
    const caught = FORBIDDEN.filter(([, pattern]) => pattern.test(ajvCompiler)).map(([what]) => what);
    expect(caught).toEqual(expect.arrayContaining(['new Function', 'ajv compileAsync', 'ajv addKeyword(']));
  });

  it.each(FORBIDDEN)('no script contains %s', (_what, pattern) => {
    const hits = scripts.filter(({ code }) => pattern.test(code)).map(({ file, code }) => {
      const at = code.search(pattern);
      return `${file}: …${code.slice(Math.max(0, at - 60), at + 60)}…`;
    });
    expect(hits).toEqual([]);
  });
});

describe('dev-only pages', () => {
  it('the form review page (/user/_forms) and its verdict endpoint are not in the production bundle', () => {
    const review = JSON.parse(readFileSync(join(ROOT, 'messages', 'form-review.ja.json'), 'utf8')) as Record<string, string>;
    // Its texts, its route, the endpoint it calls, and the index of every form it lists.
    const markers = [review.title, review.fillSample, review.serverVerdict, '_forms', '_dev/forms', 'form-index'];
    const hits = scripts.flatMap(({ file, code }) => markers.filter((marker) => code.includes(marker) || file.includes(marker)).map((marker) => `${file}: ${marker}`));
    expect(hits).toEqual([]);
  });
});
