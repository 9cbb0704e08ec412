// The route catalogue (schemas/catalogue.json) against the specification's route table
// (member-site-spec.md, section 2 "Route table").
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formNames, loadCatalogue } from '../../src/shared/validation/schema-files';
import { JAPANESE } from '../support/forms';
import { screenComponent } from '../../src/app/screen-loader';
import messages from '../../messages/ja.json';
import adminCatalogue from '../../schemas/admin-catalogue.json';

interface Route {
  path: string;
  access: string;
  screen: string;
  title: string;
  forms: string[];
  children?: Array<{ path: string; title: string }>;
}

const catalogue = loadCatalogue() as { basePath: string; index: string; loginPath: string; routes: Route[] };

/** The spec's route table, row by row ("login guard" is member access). */
const SPEC_ROUTES: Record<string, 'public' | 'member'> = {
  'email-auth': 'public',
  'old/register': 'public',
  'old/login': 'public',
  'old/logout': 'public',
  register: 'public',
  login: 'public',
  logout: 'public',
  contact: 'public',
  password_reminder: 'public',
  info: 'member',
  edit: 'member',
  'email/change': 'member',
  contact_history: 'member',
  mypage: 'member',
  withdraw: 'member',
  withdraw_complete: 'member',
};

/** Routes an issue added beyond the spec's table, each with the access it has and why. The spec
 *  lists the original site's routes; it neither names nor forbids these (docs/decisions/040). */
const BEYOND_SPEC: Record<string, { access: 'public' | 'member'; why: string }> = {
  disclosure: { access: 'member', why: 'issue 37: 登録情報の開示 (APPI Art. 33, 34, 35)' },
};

const SCREENS_DIR = fileURLToPath(new URL('../../src/screens/', import.meta.url));

/** The forms a screen's source imports as `virtual:form/<name>`. */
function formsImportedBy(screen: string): string[] {
  const dir = join(SCREENS_DIR, screen);
  if (!existsSync(dir)) return [];
  const files = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? files(join(d, f)) : [join(d, f)]));
  const names = files(dir)
    .filter((f) => /\.tsx?$/.test(f))
    // the whole form (virtual:form/…) or its schema alone (virtual:form-data/…, a view of the record)
    .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/['"]virtual:form(?:-data)?\/([^'"]+)['"]/g)].map((m) => m[1]));
  return [...new Set(names)].sort();
}

const SPEC_FILE = fileURLToPath(new URL('../../../shared/spec/member-site-spec.md', import.meta.url));

/** Parses the route table out of the specification, when it is at hand. */
function specRouteTable(markdown: string): Record<string, 'public' | 'member'> {
  const section = markdown.split('### Route table')[1] ?? '';
  const lines = section.split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  const rows = lines.slice(start + 2, end); // after the header and separator, up to the table's end
  const table: Record<string, 'public' | 'member'> = {};
  for (const row of rows) {
    const [route, access] = row.split('|').slice(1, 3).map((cell) => cell.trim());
    for (const path of route.split(',').map((p) => p.trim()).filter(Boolean)) {
      table[path] = /login guard/.test(access) ? 'member' : 'public';
    }
  }
  return table;
}

describe('route catalogue', () => {
  it('is served under /user', () => {
    expect(catalogue.basePath).toBe('/user');
  });

  it('has exactly the routes of the spec route table, and those an issue added beyond it', () => {
    expect(catalogue.routes.map((r) => r.path).sort()).toEqual([...Object.keys(SPEC_ROUTES), ...Object.keys(BEYOND_SPEC)].sort());
    for (const path of Object.keys(BEYOND_SPEC)) expect(Object.keys(SPEC_ROUTES)).not.toContain(path);
  });

  it.each(Object.entries(BEYOND_SPEC))('%s (beyond the spec) has the access its issue gives it', (path, { access }) => {
    expect(catalogue.routes.find((r) => r.path === path)?.access).toBe(access);
  });

  it('lists each route once', () => {
    const paths = catalogue.routes.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    const screens = catalogue.routes.map((r) => r.screen);
    expect(new Set(screens).size).toBe(screens.length);
  });

  it.each(Object.entries(SPEC_ROUTES))('%s has the access the spec gives it (%s)', (path, access) => {
    expect(catalogue.routes.find((r) => r.path === path)?.access).toBe(access);
  });

  it.each(catalogue.routes.map((r) => [r.path, r] as const))('%s has a non-empty Japanese title', (_path, route) => {
    expect(typeof route.title).toBe('string');
    expect(route.title.trim()).not.toBe('');
    expect(route.title).toMatch(JAPANESE);
  });

  it('child pages (contact_history/:id, ADR 022) sit under a route of the spec, each with its own Japanese title and no route of the spec as its path', () => {
    const children = catalogue.routes.flatMap((r) => (r.children ?? []).map((child) => ({ path: `${r.path}/${child.path}`, title: child.title })));
    expect(children.map((c) => c.path)).toContain('contact_history/:id');
    for (const child of children) {
      expect(child.title).toMatch(JAPANESE);
      expect(Object.keys(SPEC_ROUTES)).not.toContain(child.path);
      expect(catalogue.routes.map((r) => r.title)).not.toContain(child.title);
    }
  });

  it.each(catalogue.routes.map((r) => [r.path, r] as const))('%s lists only forms that exist in schemas/forms', (_path, route) => {
    const known = formNames();
    expect(Array.isArray(route.forms)).toBe(true);
    for (const form of route.forms) expect(known, `form "${form}" of route ${route.path}`).toContain(form);
  });

  it('every form in schemas/forms is used by some route', () => {
    // the back office's forms are its catalogue's (tests/contract/admin-catalogue.test.ts)
    const used = new Set([...catalogue.routes, ...adminCatalogue.routes].flatMap((r) => r.forms));
    expect(formNames().filter((name) => !used.has(name))).toEqual([]);
  });

  it.each(catalogue.routes.map((r) => [r.path, r] as const))('%s: its screen imports exactly the forms it lists', (_path, route) => {
    expect(formsImportedBy(route.screen)).toEqual([...route.forms].sort());
  });

  it.each(catalogue.routes.map((r) => [r.path, r] as const))('%s renders its own built screen, never a placeholder', (_path, route) => {
    expect(existsSync(join(SCREENS_DIR, route.screen, 'index.tsx')), `src/screens/${route.screen}/index.tsx`).toBe(true);
    expect(() => screenComponent(route.screen)).not.toThrow();
  });

  it('no placeholder page is left in the app (no ComingSoon component, no "coming soon" text)', () => {
    const src = fileURLToPath(new URL('../../src/', import.meta.url));
    const files = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? files(join(d, f)) : [join(d, f)]));
    const offenders = files(src).filter((f) => /ComingSoon|comingSoon/.test(f + readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
    expect(JSON.stringify(messages)).not.toMatch(/準備中/);
    expect(() => screenComponent('no-such-screen')).toThrow(/no-such-screen/);
  });

  it('index and login paths are catalogue routes (login public, index for members)', () => {
    const byPath = new Map(catalogue.routes.map((r) => [r.path, r]));
    expect(byPath.get(catalogue.loginPath)?.access).toBe('public');
    expect(byPath.has(catalogue.index)).toBe(true);
  });

  it.skipIf(!existsSync(SPEC_FILE))('the hard-coded table above still matches the specification text', () => {
    expect(specRouteTable(readFileSync(SPEC_FILE, 'utf8'))).toEqual(SPEC_ROUTES);
  });
});
