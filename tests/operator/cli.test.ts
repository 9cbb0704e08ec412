// The real process: `npx tsx src/server/operator/cli.ts …` configured only by the site's own
// environment variables (loadConfig): SQLite in DATA_DIR, or PostgreSQL by DATABASE_URL. Proves
// the wiring (config → database → mailer → exit code) that the in-process tests bypass.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, openDb, type Db } from '../../src/server/db/connect';
import { createMember } from '../../src/server/seed';
import { DATABASES, PG_URL, setUpOrFail, type DbKind } from '../support/api-harness';
import { addApplication, addInquiry, applicationRow, inquiryRow } from './operator-support';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(env: NodeJS.ProcessEnv, ...argv: string[]): Promise<Result> {
  return new Promise((resolve) => {
    // node with tsx's loader, as `npx tsx` runs it, without npx's own start-up (a second or more each).
    execFile(process.execPath, ['--import', 'tsx', 'src/server/operator/cli.ts', ...argv], { cwd: ROOT, env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

async function pgAdmin(query: string) {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** A database the process reaches through its environment alone, and a way to look inside. */
interface Target {
  env: NodeJS.ProcessEnv;
  open(): Db;
  cleanUp(): Promise<void>;
}

async function target(kind: DbKind): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'member-site-operator-'));
  // The site's variables: an SMTP port nothing listens on (list sends nothing; approve must
  // report the failed mail), and no DATABASE_URL from the caller's shell.
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, SMTP_URL: 'smtp://127.0.0.1:1' };
  delete env.DATABASE_URL;
  if (kind === 'sqlite') {
    return { env, open: () => openDb({ dataDir }), cleanUp: () => rm(dataDir, { recursive: true, force: true }) };
  }
  // A fresh schema, chosen through DATABASE_URL itself (libpq's options parameter).
  const pgSchema = `t_${randomBytes(6).toString('hex')}`;
  await pgAdmin(`CREATE SCHEMA "${pgSchema}"`);
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${pgSchema}`);
  env.DATABASE_URL = url.toString();
  return {
    env,
    open: () => openDb({ databaseUrl: PG_URL, dataDir, pgSchema }),
    async cleanUp() {
      await pgAdmin(`DROP SCHEMA IF EXISTS "${pgSchema}" CASCADE`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function using<T>(t: Target, work: (db: Db) => Promise<T>): Promise<T> {
  const db = t.open();
  try {
    return await work(db);
  } finally {
    await db.destroy();
  }
}

describe('operator: --help as a process', () => {
  it('exit 0 and the list of commands, without any database', async () => {
    const res = await cli({ ...process.env, DATABASE_URL: '' }, '--help');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('applications list [--status pending|approved|declined]');
    expect(res.stdout).toContain('applications approve <registerNumber>');
    expect(res.stdout).toContain('notices post --all --message "…"');
    expect(res.stdout).toContain('inquiries list [--status open|answered|closed|all]');
    expect(res.stdout).toContain('inquiries answer <ticketNo> --message "…"');
  });
});

describe.each(DATABASES)('operator: the command as a process ($name)', ({ kind }) => {
  let t: Target;
  let registerNumber: string;
  let ticketNo: string;
  const email = 'cli-member@example.com';

  setUpOrFail(async () => {
    t = await target(kind);
    registerNumber = await using(t, async (db) => {
      await migrate(db);
      const id = await createMember(db, email, 'Correct-Horse-9!');
      ticketNo = (await addInquiry(db, { userId: id, email, lastName: '山田', firstName: '花子', createdAt: '2025-04-01T01:00:00.000Z' })).ticket_no;
      return (await addApplication(db, id, { appliedAt: '2025-04-01T00:30:00.000Z' })).register_number;
    });
  });
  afterAll(async () => {
    await t?.cleanUp();
  });

  it('applications list → exit 0 and the application from the database the environment names', async () => {
    const res = await cli(t.env, 'applications', 'list');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(registerNumber);
    expect(res.stdout).toContain('審査中（pending）');
    expect(res.stdout).toContain('2025-04-01 09:30');
    expect(res.stdout).toContain(email);
  });

  it('an unknown number → exit 1 with the message on stderr', async () => {
    const res = await cli(t.env, 'applications', 'approve', 'R20990101-999999');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('R20990101-999999');
  });

  it('approve with an SMTP relay that refuses → exit 1 saying the mail failed; the approval and the notice are kept', async () => {
    const res = await cli(t.env, 'applications', 'approve', registerNumber);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('メール送信に失敗しました');
    await using(t, async (db) => {
      expect((await applicationRow(db, registerNumber)).status).toBe('approved');
      expect(await db.selectFrom('notifications').select('message').execute()).toEqual([{ message: '会員登録が承認されました。' }]);
    });
  });

  it('inquiries answer with an SMTP relay that refuses → exit 1 saying the mail failed; the answer is kept', async () => {
    const listed = await cli(t.env, 'inquiries', 'list');
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(ticketNo);
    expect(listed.stdout).toContain('2025-04-01 10:00');
    const res = await cli(t.env, 'inquiries', 'answer', ticketNo, '--message', '回答です。');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('回答メールの送信に失敗しました');
    await using(t, async (db) => {
      expect(await inquiryRow(db, ticketNo)).toMatchObject({ status: 'answered', answer: '回答です。' });
    });
  });

  it('notices post --all → exit 0 and the broadcast is stored', async () => {
    const res = await cli(t.env, 'notices', 'post', '--all', '--message', '説明会のお知らせ');
    expect(res.code, res.stderr).toBe(0);
    await using(t, async (db) => {
      expect(await db.selectFrom('notifications').select('message').where('user_id', 'is', null).execute()).toEqual([{ message: '説明会のお知らせ' }]);
    });
  });

  it('a bad configuration → exit 1 with the reason', async () => {
    const res = await cli({ ...t.env, DATABASE_URL: 'mysql://localhost/x' }, 'applications', 'list');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('DATABASE_URL must be a postgres:// URL');
  });
});
