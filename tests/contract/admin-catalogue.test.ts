// schemas/admin-catalogue.json against what it names: each route's roles are exactly those its
// action allows (src/server/admin/permissions.ts), each screen exists and imports exactly the forms
// it lists, and every back-office form (schemas/forms/admin-*) belongs to a back-office route.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import adminCatalogue from '../../schemas/admin-catalogue.json';
import memberCatalogue from '../../schemas/catalogue.json';
import { formNames, isBackOfficeForm } from '../../src/shared/validation/schema-files';
import { PERMISSIONS, ROLES, type AdminAction } from '../../src/server/admin/permissions';
import { menuFor, mayOpen, pages } from '../../src/admin/catalogue';
import { JAPANESE } from '../support/forms';
import adminTexts from '../../messages/admin.ja.json';
import type { ApplicationStatus } from '../../src/server/db/types';

const SCREENS_DIR = fileURLToPath(new URL('../../src/admin/screens/', import.meta.url));

interface Route {
  path: string;
  access: string;
  screen: string;
  title: string;
  forms: string[];
  action?: string;
  roles?: string[];
  children?: Array<{ path: string; title: string; action?: string; roles?: string[] }>;
}
const routes = adminCatalogue.routes as Route[];

function formsImportedBy(screen: string): string[] {
  const files = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? files(join(d, f)) : [join(d, f)]));
  const names = files(join(SCREENS_DIR, screen))
    .filter((f) => /\.tsx?$/.test(f))
    .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/['"]virtual:form(?:-data)?\/([^'"]+)['"]/g)].map((m) => m[1]));
  return [...new Set(names)].sort();
}

describe('the back office catalogue', () => {
  it('lives under /admin with a login page and a page for every role', () => {
    expect(adminCatalogue.basePath).toBe('/admin');
    expect(routes.map((r) => r.path)).toEqual(expect.arrayContaining(['login', 'setup', '']));
    for (const role of ROLES) expect(menuFor(role).length, role).toBeGreaterThan(1);
  });

  it.each(routes.map((r) => [r.path || '(home)', r] as const))('%s: a Japanese title, its screen, and exactly the forms it lists', (_path, route) => {
    expect(route.title).toMatch(JAPANESE);
    expect(existsSync(join(SCREENS_DIR, route.screen, 'index.tsx')), `src/admin/screens/${route.screen}/index.tsx`).toBe(true);
    expect(formsImportedBy(route.screen)).toEqual([...route.forms].sort());
    for (const form of route.forms) expect(isBackOfficeForm(form)).toBe(true);
  });

  it.each(routes.filter((r) => r.access === 'operator').flatMap((r) => [r, ...(r.children ?? []).map((c) => ({ ...r, ...c, path: `${r.path}/${c.path}`, action: c.action ?? r.action, roles: c.roles ?? r.roles }))]).map((r) => [r.path || '(home)', r] as const))(
    '%s: its roles are those its action allows',
    (_path, route) => {
      expect(Object.keys(PERMISSIONS)).toContain(route.action);
      expect([...(route.roles ?? [])].sort()).toEqual([...PERMISSIONS[route.action as AdminAction]].sort());
    },
  );

  it('public pages are only setup, login and the password reset', () => {
    expect(routes.filter((r) => r.access !== 'operator').map((r) => r.path).sort()).toEqual(['login', 'password-reset', 'setup']);
  });

  it('every back-office form belongs to a back-office route, and no member route uses one', () => {
    const used = new Set(routes.flatMap((r) => r.forms));
    expect(formNames().filter((name) => isBackOfficeForm(name) && !used.has(name))).toEqual([]);
    expect(memberCatalogue.routes.flatMap((r) => r.forms).filter(isBackOfficeForm)).toEqual([]);
  });

  it('the menu and the guard follow the roles: a municipality sees statistics, never a person', () => {
    expect(menuFor('municipality').map((p) => p.path)).toEqual(['', 'stats', 'account']);
    expect(mayOpen('municipality', 'members/:id')).toBe(false);
    expect(mayOpen('secretariat', 'members/export')).toBe(true);
    expect(mayOpen('secretariat', 'audit')).toBe(false);
    expect(mayOpen('admin', 'operators')).toBe(true);
    expect(pages.filter((p) => p.path.startsWith('applications')).map((p) => p.path)).toEqual(['applications', 'applications/:registerNumber']);
  });

  it('the decision history names every status a decision row can leave, a reversal\'s pending included, in Japanese (never the raw word)', () => {
    const statuses: ApplicationStatus[] = ['pending', 'approved', 'declined'];
    for (const status of statuses) expect(adminTexts.labels.decision[status], status).toMatch(JAPANESE);
  });
});
