// One mechanism for every e-mail code, keyed by purpose (login, email_register,
// password_change, email_change, operator_login). Each code belongs to the flow that asked for it (the browser
// tab or client, named by a random flow id it carries back): only that flow can use it, and
// its wrong guesses count against that code and the address's ceiling for that purpose, never
// against the member's other flows. The reasoning and the arithmetic: docs/decisions/015.
import { randomInt, randomUUID } from 'node:crypto';
import type { Db } from '../db/connect';
import { hashCode, hashToken, randomToken, sameText } from './secrets';
import { iso, inSeconds, japanDay, now } from './clock';
import type { RateLimits } from '../limits/rate-limits';
import type { Mailer, MailTemplate } from '../mail/mailer';
import type { AttemptKind, AttemptNotices } from '../mail/attempt-notices';
import { refusal } from '../server-checks';

export type CodePurpose = 'login' | 'email_register' | 'password_change' | 'email_change' | 'operator_login';

export interface CodeLimits {
  secret: string;
  codeTtlSeconds: number;
  codeMaxAttempts: number;
  /** Digits of a code: the schemas' code field says how many (src/server/schema-settings.ts). */
  codeLength: number;
  /** The address a mailed link opens: the member site's `route` in the parent site, with `key`. */
  linkUrl: (route: string, key: string) => string;
}

/** The purposes whose mail carries a link beside the code, and the screen the link opens: the
 *  ones a stranger who knows no password can start for an address (a registration for any
 *  address, a reset for whoever knows the birthday and phone), so the mailbox's owner always has
 *  a way through that no count of wrong codes refuses (docs/decisions/015). */
export const LINKED_PURPOSES: Partial<Record<CodePurpose, string>> = { email_register: 'register', password_change: 'password_reminder' };

/** How many different codes of `length` digits there are: the denominator of every guessing bound. */
export const codeSpace = (length: number) => 10 ** length;

/** Where a code goes: the address and the mail template that carries it. */
export interface CodeMail {
  to: string;
  template: MailTemplate;
  /** For an address that must not be told apart from a free one (already registered): instead
   *  of a code, an attempt is noted for the day's one combined notice of `template`'s kind
   *  (mail/attempt-notices.ts), and the stored code matches no input. Everything else — quotas,
   *  timing (a relay round trip), the answer — is the same as for a real code. */
  decoy?: boolean;
}

/** Code mails only the member's password or reset identity can cause: not charged to the
 *  requesting network's budget, so members behind one carrier address never share one
 *  (docs/decisions/015). The earliest login (no password) is charged as any other. */
const MEMBER_ONLY: ReadonlySet<CodePurpose> = new Set(['login', 'password_change', 'operator_login']);

/** Who asks: the requesting network the mail budgets count (limits/requester.ts) and the flow
 *  id the client carried, if any. */
export interface Requester {
  network: string;
  flow: string | undefined;
}

/** Which budget a code mail is drawn from: the flow's own (per recipient and purpose), or the
 *  earliest login's small one (per address and day), which cannot use up the other. */
export type CodeBudget = 'standard' | 'earliest';

export function createCodes(db: Db, limits: CodeLimits, rateLimits: RateLimits, mailer: Mailer, notices: AttemptNotices) {
  const flowHash = (flow: string) => hashToken(`code-flow\n${flow}`);
  const linkHash = (key: string) => hashToken(`code-link\n${key}`);
  const newCode = () => String(randomInt(0, codeSpace(limits.codeLength))).padStart(limits.codeLength, '0');

  /** Stores a live code (as a keyed hash) for `flow`, alive CODE_TTL_SECONDS from now. */
  const store = (
    executor: Db,
    code: { purpose: CodePurpose; email: string; userId: string | null; code: string; flow: string; link_hash?: string | null; from_link?: number },
  ) =>
    executor
      .insertInto('email_codes')
      .values({
        id: randomUUID(),
        purpose: code.purpose,
        email: code.email,
        user_id: code.userId,
        code_hash: hashCode(limits.secret, code.purpose, code.email, code.code),
        created_at: iso(now()),
        expires_at: inSeconds(limits.codeTtlSeconds),
        consumed_at: null,
        flow_hash: flowHash(code.flow),
        ...(code.link_hash ? { link_hash: code.link_hash } : {}),
        ...(code.from_link ? { from_link: code.from_link } : {}),
      })
      .execute();

  /** Charges the mail budgets for one code mail, requester first: a network over its budget
   *  never touches a recipient's (mails only a password or identity reach skip the network's).
   *  Returns how to take the charge back. */
  async function chargeMail(purpose: CodePurpose, email: string, network: string, budget: CodeBudget): Promise<() => Promise<void>> {
    const charged: Array<Parameters<RateLimits['giveBack']>> = [];
    const charge = async (...args: Parameters<RateLimits['hit']>) => {
      await rateLimits.hit(...args);
      charged.push([args[0], args[1]]);
    };
    if (budget === 'earliest' || !MEMBER_ONLY.has(purpose)) await charge('network', network);
    if (budget === 'earliest') {
      await charge('earliestNetwork', network);
      await charge('earliestRecipient', `${email}:${japanDay(now())}`);
    } else {
      await charge('recipient', `${purpose}:${email}`);
    }
    return async () => {
      for (const [kind, key] of charged) await rateLimits.giveBack(kind, key);
    };
  }

  return {
    /** Mails a fresh code for (purpose, email) to `requester`'s flow and, once the relay has
     *  accepted the mail, stores it in place of that flow's earlier code for them (a resend);
     *  other flows' codes stay as they are. Returns the flow id the client must carry back. A failed
     *  send stores nothing: the earlier code stays valid and no budget is used. */
    async issue(purpose: CodePurpose, email: string, userId: string | null, mail: CodeMail, requester: Requester, budget: CodeBudget = 'standard'): Promise<string> {
      const refund = await chargeMail(purpose, email, requester.network, budget);
      const code = mail.decoy ? randomUUID() : newCode();
      const route = mail.decoy ? undefined : LINKED_PURPOSES[purpose];
      const link = route ? randomToken() : undefined;
      try {
        if (mail.decoy) await notices.instead(mail.to, mail.template as AttemptKind);
        else await mailer.send(mail.to, mail.template, { code, minutes: Math.round(limits.codeTtlSeconds / 60), ...(route && link ? { url: limits.linkUrl(route, link) } : {}) });
      } catch (error) {
        await refund();
        throw error;
      }
      // A flow this server gave the client goes on (a resend, or another code in the same tab);
      // anything else starts a new one. Within a flow, a new code replaces only the earlier code
      // for the same address and purpose.
      const known = requester.flow
        ? await db.selectFrom('email_codes').select('id').where('flow_hash', '=', flowHash(requester.flow)).executeTakeFirst()
        : undefined;
      const flow = known && requester.flow ? requester.flow : randomToken();
      await db.transaction().execute(async (tx) => {
        await tx
          .updateTable('email_codes')
          .set({ consumed_at: iso(now()) })
          .where('flow_hash', '=', flowHash(flow))
          .where('purpose', '=', purpose)
          .where('email', '=', email)
          .where('consumed_at', 'is', null)
          .execute();
        await store(tx, { purpose, email, userId, code, flow, link_hash: link ? linkHash(link) : null });
      });
      return flow;
    },

    /** Opens a mailed link: spends the code it came with and gives a new flow a fresh code for the
     *  same address and purpose (mailed to nobody: the answer carries it), as if the code had been
     *  typed in that flow. Counts nothing: a link is 256 random bits, and only the mailbox's owner
     *  holds it. Unknown, used or expired: CODE_LINK_INVALID. */
    async openLink(key: string): Promise<{ purpose: CodePurpose; email: string; code: string; flow: string }> {
      const row = await db
        .selectFrom('email_codes')
        .select(['id', 'purpose', 'email', 'user_id', 'expires_at'])
        .where('link_hash', '=', linkHash(key))
        .where('consumed_at', 'is', null)
        .executeTakeFirst();
      if (!row || row.expires_at <= iso(now()) || !LINKED_PURPOSES[row.purpose as CodePurpose]) throw refusal('codeLinkInvalid');
      const purpose = row.purpose as CodePurpose;
      const code = newCode();
      const flow = randomToken();
      await db.transaction().execute(async (tx) => {
        const spent = await tx.updateTable('email_codes').set({ consumed_at: iso(now()) }).where('id', '=', row.id).where('consumed_at', 'is', null).executeTakeFirst();
        if (Number(spent.numUpdatedRows) !== 1) throw refusal('codeLinkInvalid'); // opened twice at once
        await store(tx, { purpose, email: row.email, userId: row.user_id, code, flow, from_link: 1 });
      });
      return { purpose, email: row.email, code, flow };
    },

    /** Consumes `flow`'s live code for (purpose, email) if `code` matches. Wrong: CODE_INVALID
     *  (400); the try that reaches the code's limit, and any after it: CODE_LOCKED (429); over
     *  the address's ceiling for the purpose: TOO_MANY_ATTEMPTS (429). A guess from a flow
     *  with no live code for the address is answered like any wrong code and costs nothing. */
    async consume(
      purpose: CodePurpose,
      email: string,
      code: string,
      flow: string | undefined,
      /** What else the step needs before the code is judged (the login's password, the
       *  member the code was mailed to). False: the try is answered as a wrong code, having
       *  cost the code one of its tries but not the address's ceiling. */
      gate?: (userId: string | null) => Promise<boolean>,
    ): Promise<{ userId: string | null }> {
      const row = flow
        ? await db
            .selectFrom('email_codes')
            .selectAll()
            .where('flow_hash', '=', flowHash(flow))
            .where('purpose', '=', purpose)
            .where('email', '=', email)
            .where('consumed_at', 'is', null)
            .orderBy('created_at', 'desc')
            .executeTakeFirst()
        : undefined;
      if (!row || row.expires_at <= iso(now())) throw refusal('codeWrong');

      // Reserve this try in one statement before anything is judged, so parallel guesses
      // cannot all read the same count and slip past the code's own limit.
      const reserved = await db
        .updateTable('email_codes')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('id', '=', row.id)
        .where('consumed_at', 'is', null)
        .where('attempts', '<', limits.codeMaxAttempts)
        .returning('attempts')
        .executeTakeFirst();
      if (!reserved) {
        const current = await db.selectFrom('email_codes').select('consumed_at').where('id', '=', row.id).executeTakeFirst();
        throw refusal(current?.consumed_at ? 'codeWrong' : 'codeTries');
      }
      const wrong = () => refusal(Number(reserved.attempts) >= limits.codeMaxAttempts ? 'codeTries' : 'codeWrong');
      if (gate && !(await gate(row.user_id))) throw wrong();

      // The address's ceiling for this purpose, over all its flows, counted before the code is
      // compared (so parallel guesses all count); a right code takes its try back.
      // A code a mailed link gave this flow was never guessable from anywhere else (the flow and
      // the link are 256 random bits each): no ceiling counts it, so the mailbox's owner gets
      // through whatever strangers spent of it.
      const ceiling = `${purpose}:${email}`;
      const counted = !Number(row.from_link);
      if (counted) await rateLimits.hit('code', ceiling);
      if (!sameText(row.code_hash, hashCode(limits.secret, purpose, email, code))) throw wrong();
      if (counted) await rateLimits.giveBack('code', ceiling);
      const done = await db
        .updateTable('email_codes')
        .set({ consumed_at: iso(now()) })
        .where('id', '=', row.id)
        .where('consumed_at', 'is', null)
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) throw refusal('codeWrong'); // used by a parallel request
      return { userId: row.user_id };
    },

    /** The keyed hash a flow id is stored as (registration tickets carry it too). */
    flowHash,
  };
}

export type Codes = ReturnType<typeof createCodes>;
