// Every role against every action (issue 23, point 3; docs/decisions/030): each /v1/admin/ route
// the app has is tried as admin, secretariat and municipality. A role the action allows gets
// past the guard (not 401, not 403); a role it does not allow gets 403 FORBIDDEN and the
// database is as it was. The table of routes is one list: a route the app has and the table
// does not fails the test, and so does an action of PERMISSIONS no route names. Every answer
// given is checked against its schema (schemas/api/answers/admin.json).
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASES, Harness, expectError, setUpOrFail } from '../support/api-harness';
import { operatorSession, type TestOperator } from '../support/admin-session';
import { asOperator } from '../support/admin-records';
import { adminRoutes, snapshot, table } from '../support/admin-routes';
import { PERMISSIONS, ROLES, mayDo, type Role } from '../../src/server/admin/permissions';
import { answerErrors, NOT_OURS } from '../support/admin-answers';

describe.each(DATABASES)('back office roles × actions ($name)', ({ kind }) => {
  let h: Harness;
  let office: TestOperator;
  const sessions = {} as Record<Role, TestOperator>;
  const rows = table(() => office);

  setUpOrFail(async () => {
    h = await Harness.start(kind);
    office = await operatorSession(h.db, 'secretariat', '準備 担当');
    for (const role of ROLES) sessions[role] = await operatorSession(h.db, role);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('every /v1/admin/ route the app has is in the table, and every action has a route', () => {
    const routes = adminRoutes(h);
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((route) => !(route in rows)), 'a route without a row: add it to the table').toEqual([]);
    expect(Object.keys(PERMISSIONS).filter((action) => !Object.values(rows).some((row) => row.action === action))).toEqual([]);
  });

  describe.each(Object.entries(rows))('%s', (route, row) => {
    const [method, path] = route.split(' ') as ['GET' | 'POST' | 'DELETE', string];
    describe.each(ROLES.map((role) => ({ role, allowed: mayDo(role, row.action) })))('$role', ({ role, allowed }) => {
      it(allowed ? `may ${row.action}: past the guard` : `may not ${row.action}: 403 FORBIDDEN, nothing changed`, async (context) => {
        if (!adminRoutes(h).includes(route)) context.skip();
        const operator = row.ownSession ? await operatorSession(h.db, role) : sessions[role];
        const request = await row.request(h, operator);
        expect(request.url.split('?')[0]!.replace(/[^/]+/g, (part, offset, whole) => (path.split('/')[whole.slice(0, offset).split('/').length - 1]?.startsWith(':') ? path.split('/')[whole.slice(0, offset).split('/').length - 1]! : part))).toBe(path);
        if (allowed) {
          const res = await asOperator(h, operator, method, request.url, request.body);
          expect([401, 403], res.body).not.toContain(res.statusCode);
          expect(res.statusCode, res.body).toBeLessThan(300);
          // The answer is what its schema says (the types the back office reads are made from it).
          if (!NOT_OURS.has(route)) expect(answerErrors(route, res.json())).toEqual([]);
          return;
        }
        const before = await snapshot(h);
        expectError(await asOperator(h, sessions[role], method, request.url, request.body), 403, 'FORBIDDEN');
        expect(await snapshot(h)).toBe(before);
      });
    });
  });
});
