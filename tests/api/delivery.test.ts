// How the built client goes out (ADR 017): the build's .br/.gz files by content negotiation,
// hashed assets cached for a year, HTML never cached, each route's HTML preloading its screen
// chunk with its imports and prefetching the likely next screen, and answers over 1 KB
// compressed on the fly. Runs against a small stand-in dist/ so it needs no build.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import catalogue from '../../schemas/catalogue.json';
import messages from '../../messages/ja.json';
import { build } from '../../src/server/app';
import { MANIFEST_PATH, screenModule, type ViteManifest } from '../../src/server/route-assets';
import { CLIENT_KEY, FakeMailer, SECRET, openTestDb, testConfig, type TestDb } from '../support/api-harness';

const SCRIPT = (name: string) => `export const ${name} = ${JSON.stringify('x'.repeat(3000))};\n`;
const FILES = {
  entry: 'assets/index-AAAA.js',
  runtime: 'assets/runtime-BBBB.js',
  login: 'assets/login-CCCC.js',
  form: 'assets/SchemaForm-DDDD.js',
  mypage: 'assets/mypage-EEEE.js',
  client: 'assets/client-FFFF.js',
};
const MANIFEST: ViteManifest = {
  'index.html': { file: FILES.entry, isEntry: true, imports: ['_runtime'], dynamicImports: [screenModule('login'), screenModule('mypage')] },
  _runtime: { file: FILES.runtime },
  _form: { file: FILES.form, imports: ['_client', 'index.html'] },
  _client: { file: FILES.client },
  [screenModule('login')]: { file: FILES.login, imports: ['_runtime', 'index.html', '_form', '_client'] },
  [screenModule('mypage')]: { file: FILES.mypage, imports: ['index.html', '_client'] },
};

let distDir: string;
let testDb: TestDb;
let app: FastifyInstance;

beforeAll(async () => {
  distDir = mkdtempSync(join(tmpdir(), 'member-site-delivery-'));
  mkdirSync(join(distDir, 'assets'));
  mkdirSync(join(distDir, '.vite'));
  writeFileSync(
    join(distDir, 'index.html'),
    `<!doctype html><html lang="ja"><head><title>t</title><meta name="description" content="${'x'.repeat(1200)}"><script type="module" crossorigin src="/user/${FILES.entry}"></script><link rel="modulepreload" crossorigin href="/user/${FILES.runtime}"></head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(join(distDir, MANIFEST_PATH), JSON.stringify(MANIFEST));
  for (const [name, file] of Object.entries(FILES)) {
    writeFileSync(join(distDir, file), SCRIPT(name));
    writeFileSync(join(distDir, `${file}.br`), brotliCompressSync(SCRIPT(name)));
    writeFileSync(join(distDir, `${file}.gz`), gzipSync(SCRIPT(name)));
  }
  writeFileSync(join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // the build's source map beside its script, as `npm run build` leaves it
  writeFileSync(join(distDir, `${FILES.entry}.map`), JSON.stringify({ version: 3, sources: ['src/main.tsx'], mappings: '' }));
  testDb = await openTestDb('sqlite');
  app = await build({ db: testDb.db, mailer: new FakeMailer(), clientKey: CLIENT_KEY, secret: SECRET, config: testConfig, distDir });
  // An answer of a known size on each side of the 1 KB threshold.
  app.get('/v1/test/big', async () => ({ text: 'あ'.repeat(600) }));
  app.get('/v1/test/small', async () => ({ text: 'small' }));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await testDb?.close();
  rmSync(distDir, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) => app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('hashed assets', () => {
  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('go out as the build’s %s file, cached for a year', async (encoding, decode) => {
    const res = await get(`/user/${FILES.entry}`, `${encoding}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(decode(res.rawPayload).toString()).toBe(SCRIPT('entry'));
  });

  it('go out as they are to a client that accepts no compression', async () => {
    const res = await get(`/user/${FILES.entry}`, 'identity');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(SCRIPT('entry'));
  });

  it('an unhashed file is revalidated, not kept a year', async () => {
    expect((await get('/user/favicon.svg')).headers['cache-control']).toBe('no-cache');
  });

  it('the manifest stays on the server', async () => {
    const res = await get(`/user/${MANIFEST_PATH}`);
    expect(res.body).not.toContain(FILES.login);
  });

  it('source maps stay on the server: 404, not the map and not the page', async () => {
    const res = await get(`/user/${FILES.entry}.map`);
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('mappings');
    expect(res.body).not.toContain('id="root"');
  });

  it('a file the build did not make (an old hash) is 404, not the page with a 200', async () => {
    const res = await get('/user/assets/index-OLDHASH.js');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('id="root"');
  });
});

describe('route HTML', () => {
  const links = (html: string, rel: string) => [...html.matchAll(new RegExp(`<link rel="${rel}"[^>]*href="/user/([^"]+)"`, 'g'))].map((m) => m[1]);

  it('is never cached and goes out compressed', async () => {
    const res = await get('/user/login', 'br, gzip');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('preloads the screen chunk with all it imports at once, and prefetches the next screen', async () => {
    const html = (await get('/user/login')).body;
    expect(links(html, 'modulepreload')).toEqual([FILES.runtime, FILES.login, FILES.form, FILES.client]);
    // login → mypage (catalogue "next"): what mypage needs that login did not load
    expect(links(html, 'prefetch')).toEqual([FILES.mypage]);
    expect(html).toContain('member-site-settings');
  });

  it('loads its scripts at low priority, its stylesheet not: the app shell paints first', async () => {
    const html = (await get('/user/login')).body;
    const scripts = [...html.matchAll(/<script type="module"[^>]*>|<link rel="modulepreload"[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBe(5); // the entry and the four preloads
    expect(scripts.filter((tag) => !tag.includes('fetchpriority="low"'))).toEqual([]);
    expect(links(html, 'prefetch').length).toBeGreaterThan(0);
    expect(html).not.toMatch(/<link rel="(stylesheet|prefetch)"[^>]*fetchpriority/);
  });

  it('a route without "next" prefetches nothing; a query string or trailing slash finds the same page', async () => {
    expect(links((await get('/user/mypage')).body, 'prefetch')).toEqual([]);
    expect(links((await get('/user/mypage')).body, 'modulepreload')).toContain(FILES.mypage);
    expect((await get('/user/login/?from=x')).body).toBe((await get('/user/login')).body);
  });

  it('carries the app shell: the site name and the route’s title paint before any script runs', async () => {
    const login = catalogue.routes.find((route) => route.path === 'login')!;
    const html = (await get('/user/login')).body;
    expect(html).toContain(`<h1 class="page__title">${login.title}</h1>`);
    expect(html).toContain(`<p class="page__site">${messages.site.name}</p>`);
    expect(html).toMatch(new RegExp(`<title>${login.title}[^<]*${messages.site.name}</title>`));
  });

  it('an unknown path gets the plain page, without route preloads', async () => {
    const html = (await get('/user/nowhere')).body;
    expect(links(html, 'modulepreload')).toEqual([FILES.runtime]);
  });
});

describe('API answers', () => {
  it('over 1 KB are compressed', async () => {
    const res = await get('/v1/test/big', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString()).text).toHaveLength(600);
  });

  it('under 1 KB are not', async () => {
    expect((await get('/v1/test/small', 'gzip')).headers['content-encoding']).toBeUndefined();
  });
});
