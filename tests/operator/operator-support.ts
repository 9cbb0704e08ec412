// Runs operator commands in-process against a test database and a recording mailer, and adds
// the rows the commands work on (applications, notices) with known dates.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/server/db/connect';
import type { ApplicationStatus } from '../../src/server/db/types';
import type { Mailer } from '../../src/server/mail/mailer';
import type { Output } from '../../src/server/operator/output';
import { runOperator } from '../../src/server/operator/run';
import type { Harness } from '../support/api-harness';

export { default as messages } from '../../messages/ja.json';

export class RecordingOutput implements Output {
  readonly outLines: string[] = [];
  readonly errLines: string[] = [];
  out(line: string) {
    this.outLines.push(line);
  }
  err(line: string) {
    this.errLines.push(line);
  }
  get stdout() {
    return this.outLines.join('\n');
  }
  get stderr() {
    return this.errLines.join('\n');
  }
}

export interface OperatorRun {
  code: number;
  stdout: string;
  stderr: string;
  out: string[];
}

/** `npm run operator -- …argv` in-process, on `db` with `mailer`. */
export async function operator({ db, mailer }: { db: Db; mailer: Mailer }, ...argv: string[]): Promise<OperatorRun> {
  const output = new RecordingOutput();
  const code = await runOperator(argv, output, async () => ({ db, mailer, close: async () => {} }));
  return { code, stdout: output.stdout, stderr: output.stderr, out: output.outLines };
}

let sequence = 0;

/** A registration number of the site's shape, unique in this test run. */
export function nextRegisterNumber(): string {
  sequence += 1;
  return `R20250401-${String(100000 + sequence).slice(-6)}`;
}

export interface ApplicationInput {
  registerNumber?: string;
  status?: ApplicationStatus;
  appliedAt?: string;
  decidedAt?: string | null;
}

export async function addApplication(db: Db, userId: string, input: ApplicationInput = {}) {
  const row = {
    id: randomUUID(),
    user_id: userId,
    register_number: input.registerNumber ?? nextRegisterNumber(),
    status: input.status ?? 'pending',
    applied_at: input.appliedAt ?? new Date().toISOString(),
    decided_at: input.decidedAt ?? null,
  } as const;
  await db.insertInto('applications').values(row).execute();
  return row;
}

export async function applicationRow(db: Db, registerNumber: string) {
  return db.selectFrom('applications').selectAll().where('register_number', '=', registerNumber).executeTakeFirstOrThrow();
}

export async function noticesOf(db: Db, userId: string | null) {
  const query = db.selectFrom('notifications').selectAll().orderBy('created_at');
  return (userId === null ? query.where('user_id', 'is', null) : query.where('user_id', '=', userId)).execute();
}

export async function countNotices(db: Db): Promise<number> {
  const row = await db.selectFrom('notifications').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What the member reads on my page, through the API with a real login. */
export async function myPage(h: Harness, member: { id: string; email: string; password: string }) {
  const { token } = await h.loginWithCode(member);
  const headers = { authorization: `Bearer ${token}` };
  const applications = await h.app.inject({ method: 'GET', url: '/v1/user/application', headers });
  const notices = await h.app.inject({ method: 'GET', url: '/v1/user/notification', headers });
  return {
    applications: applications.json<{ date: string; status: string; registerNumber: string }[]>(),
    notices: notices.json<{ id: string; date: string; message: string }[]>(),
  };
}

/** Empties what the commands write, so every test starts from no applications and no notices. */
export async function clearOperatorTables(db: Db) {
  await db.deleteFrom('notifications').execute();
  await db.deleteFrom('applications').execute();
}
