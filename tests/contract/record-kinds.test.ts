// Each record kind of the back office is declared once (schemas/records/<kind>.json, issue 34
// point 1): every declaration has the form record-kind.schema.json gives, names permissions that
// exist, audit actions the audit screen can name, labels messages/admin.ja.json holds, and a
// route for its list, detail and actions that the app serves behind the declared permission
// (the routes' own guards are read from src/server/admin/routes). What the API and the screen
// make of a declaration: tests/api/admin-records.test.ts ('record kinds') and
// tests/contract/record-list.test.tsx.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/server/admin/permissions';
import { AUDIT_DETAIL_KEYS } from '../../src/server/admin/audit';
import { RECORD_KINDS } from '../../src/shared/record-kinds';
import catalogue from '../../schemas/admin-catalogue.json';
import text from '../../messages/admin.ja.json';

const dir = path.join(__dirname, '../../schemas/records');
const schema = JSON.parse(readFileSync(path.join(dir, 'record-kind.schema.json'), 'utf8')) as object;
const files = readdirSync(dir).filter((name) => name.endsWith('.json') && name !== 'record-kind.schema.json');
const routeSources = ['records.ts', 'auth.ts', 'passkeys.ts'].map((name) => readFileSync(path.join(__dirname, '../../src/server/admin/routes', name), 'utf8')).join('\n');

const messageAt = (key: string): unknown => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], text);

/** The permission the route `METHOD /path` names in its guard, as its source writes it. */
function guardOf(route: string): string | undefined {
  const [method, url] = route.split(' ');
  const at = routeSources.indexOf(`app.${method!.toLowerCase()}(\n    '${url}'`) >= 0 ? routeSources.indexOf(`app.${method!.toLowerCase()}(\n    '${url}'`) : routeSources.indexOf(`app.${method!.toLowerCase()}('${url}'`);
  if (at < 0) return undefined;
  return /[gG]uard\('([\w.]+)'\)/.exec(routeSources.slice(at, at + 400))?.[1];
}

describe('record kinds, each declared once', () => {
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);

  it('there is one declaration per list of the back office, each loaded by the server', () => {
    expect(files.map((f) => f.replace('.json', '')).sort()).toEqual(Object.keys(RECORD_KINDS).sort());
  });

  describe.each(files)('%s', (file) => {
    const declaration = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as (typeof RECORD_KINDS)['applications'];

    it('has the form of record-kind.schema.json', () => {
      expect(validate(declaration), JSON.stringify(validate.errors)).toBe(true);
      expect(declaration.kind).toBe(file.replace('.json', ''));
    });

    it('names permissions that exist and audit actions the audit screen names', () => {
      const audits = [declaration.view.audit, declaration.detail?.audit, ...declaration.actions.flatMap((a) => a.audit)].filter((a): a is string => !!a);
      for (const permission of [declaration.view.permission, declaration.detail?.permission, ...declaration.actions.map((a) => a.permission)].filter(Boolean)) {
        expect(Object.keys(PERMISSIONS), permission).toContain(permission);
      }
      for (const action of audits) expect(text.labels.actions, action).toHaveProperty([action]);
      // A list view of personal data is recorded with its filters, sort and page.
      for (const key of ['q', 'filter', 'sort', 'page', 'results']) expect(AUDIT_DETAIL_KEYS).toContain(key);
    });

    it('labels come from messages/admin.ja.json (columns, filters, sorts, caption)', () => {
      const keys = [declaration.caption, ...declaration.columns.map((c) => c.label!), ...declaration.filters.map((f) => f.label), ...declaration.sorts.map((s) => s.label)];
      for (const key of keys) expect(typeof messageAt(key), key).toBe('string');
      for (const group of [...declaration.columns, ...declaration.filters].flatMap((c) => (c.labels ? [c.labels] : []))) expect(text.labels, group).toHaveProperty([group]);
    });

    it('its list, detail and every action are routes guarded by the declared permission', () => {
      for (const { route, permission } of [declaration.view, ...(declaration.detail ? [declaration.detail] : []), ...declaration.actions]) {
        expect(guardOf(route), route).toBe(permission);
      }
    });

    it('its page size is stated here alone: the catalogue screen restates none', () => {
      const screen = catalogue.routes.find((r) => r.path === declaration.kind) as { settings?: { pageSize?: number } } | undefined;
      expect(screen?.settings?.pageSize).toBeUndefined();
      expect(declaration.pageSize).toBeGreaterThan(0);
    });
  });
});
