// The dispatcher: --help, unknown commands and a database that cannot be opened, without a
// database where none is needed.
import { describe, expect, it } from 'vitest';
import { COMMANDS, runOperator, type Connection } from '../../src/server/operator/run';
import { FakeMailer } from '../support/api-harness';
import { RecordingOutput, operatorText } from './operator-support';

const text = operatorText;

const noDatabase = async (): Promise<Connection> => {
  throw new Error('the database must not be opened');
};

async function run(argv: string[], connect: () => Promise<Connection> = noDatabase) {
  const output = new RecordingOutput();
  const code = await runOperator(argv, output, connect);
  return { code, stdout: output.stdout, stderr: output.stderr };
}

describe('operator: the command line', () => {
  it('--help (anywhere) lists every command with its syntax and exits 0 without opening the database', async () => {
    for (const argv of [['--help'], ['-h'], ['applications', '--help'], ['notices', 'post', '--help']]) {
      const res = await run(argv);
      expect(res.code, argv.join(' ')).toBe(0);
      expect(res.stderr).toBe('');
      for (const syntax of [
        'applications list [--status pending|approved|declined] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--search <name, e-mail or number>] [--sort newest|oldest] [--after <registerNumber>]',
        'applications approve <registerNumber>',
        'applications decline <registerNumber> [--reason "…"]',
        'notices post --to <email> --message "…"',
        'notices post --all --message "…"',
        'notices list [--to <email>] [--sort newest|oldest] [--after <id>]',
        'inquiries list [--status open|answered|closed|all] [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--sort newest|oldest] [--after <ticketNo>]',
        'members list [--status active|withdrawn] [--prefecture <prefecture>]',
        'inquiries show <ticketNo>',
        'inquiries answer <ticketNo> --message "…"',
        'inquiries close <ticketNo>',
        'operators add <email> --name "…" --role admin|secretariat|municipality',
        'operators list',
        'operators disable <email>',
        'operators link <email>',
        'reindex [--batch <members>]',
        'retention run [--dry-run]',
        'outbox uncertain',
        'outbox resend <id>',
        'outbox done <id>',
        '--help',
      ]) {
        expect(res.stdout).toContain(syntax);
      }
      for (const summary of Object.values(text.summaries)) expect(res.stdout).toContain(summary);
    }
    expect(COMMANDS.map((c) => [c.group, c.name].filter(Boolean).join(' '))).toEqual([
      'applications list',
      'applications approve',
      'applications decline',
      'notices post',
      'notices list',
      'inquiries list',
      'inquiries show',
      'inquiries answer',
      'inquiries close',
      'requests list',
      'requests show',
      'requests handle',
      'members list',
      'members show',
      'outbox list',
      'outbox retry',
      'outbox uncertain',
      'outbox resend',
      'outbox done',
      'operators list',
      'operators add',
      'operators disable',
      'operators link',
      'reindex',
      'retention run',
    ]);
  });

  it('no command → exit 1 with the help on stderr', async () => {
    const res = await run([]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(text.errors.noCommand);
    expect(res.stderr).toContain('applications list');
  });

  it('an unknown group or command → exit 1 naming it, without opening the database', async () => {
    for (const argv of [['members', 'delete'], ['applications'], ['applications', 'delete', 'R20250401-000001'], ['notices', 'remove'], ['inquiries'], ['inquiries', 'reopen', 'Q250401-00001']]) {
      const res = await run(argv);
      expect(res.code, argv.join(' ')).toBe(1);
      expect(res.stderr).toContain(`不明なコマンドです: ${argv.slice(0, 2).join(' ')}`);
    }
  });

  it('a database or configuration that cannot be opened → exit 1 with the reason', async () => {
    const res = await run(['applications', 'list'], async () => {
      throw new Error('DATABASE_URL must be a postgres:// URL');
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('DATABASE_URL must be a postgres:// URL');
  });

  it('closes the connection after a command, also after a failed one', async () => {
    let closed = 0;
    const broken = {
      selectFrom() {
        throw new Error('connection reset');
      },
    };
    const connect = async (): Promise<Connection> => ({
      db: broken as unknown as Connection['db'],
      mailer: new FakeMailer(),
      close: async () => {
        closed += 1;
      },
    });
    const res = await run(['applications', 'list'], connect);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('connection reset');
    expect(closed).toBe(1);
  });
});
