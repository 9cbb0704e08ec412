// Runs operator commands in-process against a test database and a recording mailer, and adds
// the rows the commands work on (applications, notices, inquiries) with known dates.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { InsertQueryNode, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import type { Db } from '../../src/server/db/connect';
import type { ApplicationStatus, InquiryStatus } from '../../src/server/db/types';
import type { Mailer } from '../../src/server/mail/mailer';
import type { Output } from '../../src/server/operator/output';
import { runOperator } from '../../src/server/operator/run';
import type { Harness } from '../support/api-harness';

export { default as operatorText } from '../../messages/operator.ja.json';

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

/** A database on which every insert into `table` fails (a full disk, a crash between two
 *  statements): `db.withPlugin(new FailingInserts('mail_outbox'))`. */
export class FailingInserts implements KyselyPlugin {
  constructor(private readonly table: string) {}

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (InsertQueryNode.is(node) && node.into?.table.identifier.name === this.table) throw new Error(`insert into ${this.table} failed (injected)`);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

/** The mail waiting in the outbox (not yet sent), oldest first. */
export async function unsentMail(db: Db) {
  return db.selectFrom('mail_outbox').selectAll().where('sent_at', 'is', null).orderBy('created_at').execute();
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

export interface InquiryInput {
  ticketNo?: string;
  /** The member who sent it; none for a visitor. */
  userId?: string | null;
  lastName?: string;
  firstName?: string;
  email?: string;
  userType?: string;
  type?: string;
  job?: string;
  content?: string;
  status?: InquiryStatus;
  answer?: string | null;
  createdAt?: string;
  updatedAt?: string;
}

/** A ticket number of the site's shape (Q + yymmdd + 5 digits), unique in this test run. */
export function nextTicketNo(): string {
  sequence += 1;
  return `Q250401-${String(100000 + sequence).slice(-5)}`;
}

/** An inquiry row as POST /v1/contact stores it (a visitor's unless userId is given). */
export async function addInquiry(db: Db, input: InquiryInput = {}) {
  const createdAt = input.createdAt ?? new Date().toISOString();
  const row = {
    id: randomUUID(),
    ticket_no: input.ticketNo ?? nextTicketNo(),
    user_id: input.userId ?? null,
    last_name_kanji: input.lastName ?? '佐藤',
    first_name_kanji: input.firstName ?? '次郎',
    email: input.email ?? `visitor-${sequence}@example.com`,
    inquiry_user_type: input.userType ?? '2',
    inquiry_type: input.type ?? '1',
    job: input.job ?? '1',
    content: input.content ?? '会員登録の審査にはどのくらいの日数がかかりますか。教えてください。',
    status: input.status ?? 'open',
    answer: input.answer ?? null,
    created_at: createdAt,
    updated_at: input.updatedAt ?? createdAt,
  } as const;
  await db.insertInto('inquiries').values(row).execute();
  return row;
}

export async function inquiryRow(db: Db, ticketNo: string) {
  return db.selectFrom('inquiries').selectAll().where('ticket_no', '=', ticketNo).executeTakeFirstOrThrow();
}

/** Empties what the commands write, so every test starts from no applications, notices or inquiries. */
export async function clearOperatorTables(db: Db) {
  // The back office's history of each (migration 015) goes first; the audit log is append-only.
  await db.deleteFrom('application_decisions').execute();
  await db.deleteFrom('inquiry_answers').execute();
  await db.deleteFrom('notifications').execute();
  await db.deleteFrom('applications').execute();
  await db.deleteFrom('inquiries').execute();
}

/** Runs a list command and every "next page" command its last line prints, until a page says
 *  no more follow: the lines of each page (without header, rule and last line) and the commands run. */
export async function everyPage(h: { db: Db; mailer: Mailer }, ...argv: string[]): Promise<{ pages: string[][]; commands: string[][] }> {
  const pages: string[][] = [];
  const commands: string[][] = [argv];
  for (let next: string[] | undefined = argv; next; ) {
    const res = await operator(h, ...next);
    expect(res.code, res.stderr).toBe(0);
    pages.push(res.out.slice(2, -1));
    next = /npm run operator -- (.+)$/.exec(res.out.at(-1) ?? '')?.[1]?.split(' ');
    if (next) commands.push(next);
  }
  return { pages, commands };
}
