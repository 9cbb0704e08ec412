// Inquiries: sent by visitors and members (POST /v1/contact), listed for the member who sent
// them (GET /v1/user/contact/list). Operators answer and close them with the operator tool.
import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { requireMember } from '../auth';
import { isUniqueViolation } from '../db/errors';
import type { InquiryStatus } from '../db/types';
import { masterOptions, unknownValues } from '../masters';
import { iso, japanDay, now } from '../services/clock';
import { activeMember } from '../members';
import messages from '../../../messages/ja.json';

interface ContactPayload {
  last_name_kanji: string;
  first_name_kanji: string;
  email: string;
  inquiry_user_type: string;
  inquiry_type: string;
  job: string;
  purpose_detail: string;
}

const STATUSES: InquiryStatus[] = ['open', 'answered', 'closed'];
const SUBJECT_LENGTH = 40;
const MAX_PAGE_SIZE = 100;

export function ticketNumber(at: Date): string {
  return `Q${japanDay(at).slice(2)}-${String(randomInt(0, 100_000)).padStart(5, '0')}`;
}

/** The list's one-line subject: the start of the inquiry text. */
export function subjectOf(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  return [...line].length > SUBJECT_LENGTH ? `${[...line].slice(0, SUBJECT_LENGTH).join('')}…` : line;
}

export function contactRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post('/v1/contact', { config: { auth: 'client-or-member' } }, async (request) => {
    const body = ctx.parse<ContactPayload>('api.contact.json', request.body);
    const fields: Record<string, string[]> = {};
    for (const [field, master] of [['inquiry_user_type', 'inquiry_user_category'], ['inquiry_type', 'inquiry_type'], ['job', 'job']] as const) {
      if ((await unknownValues(ctx.db, master, [body[field]])).length) fields[field] = [messages.api.MASTER_UNKNOWN];
    }
    if (Object.keys(fields).length) throw new ApiError('VALIDATION', fields);
    // A member's inquiry is theirs: their own name and address, whatever the form carried.
    const member = request.memberId ? await activeMember(ctx.db, request.memberId) : undefined;
    const sender = member
      ? { last_name_kanji: member.last_name_kanji, first_name_kanji: member.first_name_kanji, email: member.email }
      : { last_name_kanji: body.last_name_kanji, first_name_kanji: body.first_name_kanji, email: body.email };

    const at = now();
    let ticketNo = '';
    for (let attempt = 0; !ticketNo; attempt++) {
      const candidate = ticketNumber(at);
      try {
        await ctx.db
          .insertInto('inquiries')
          .values({
            id: randomUUID(),
            ticket_no: candidate,
            user_id: member?.id ?? null,
            ...sender,
            inquiry_user_type: body.inquiry_user_type,
            inquiry_type: body.inquiry_type,
            job: body.job,
            content: body.purpose_detail,
            status: 'open',
            answer: null,
            created_at: iso(at),
            updated_at: iso(at),
          })
          .execute();
        ticketNo = candidate;
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
      }
    }
    const typeLabel = (await masterOptions(ctx.db, 'inquiry_type')).find((o) => o.value === body.inquiry_type)?.label ?? body.inquiry_type;
    await ctx.mailer
      .send(sender.email, 'contactReceived', { name: `${sender.last_name_kanji} ${sender.first_name_kanji}`, ticketNo, typeLabel, content: body.purpose_detail })
      .catch((error) => request.log.error({ err: error }, 'contact acknowledgement failed'));
    return { ticket_no: ticketNo };
  });

  app.get('/v1/user/contact/list', { config: { auth: 'member' } }, async (request) => {
    const query = request.query as { page?: string; size?: string; status?: string };
    const page = Math.max(1, Number.parseInt(query.page ?? '1', 10) || 1);
    const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Number.parseInt(query.size ?? '20', 10) || 20));
    const status = query.status ?? 'open';
    if (status !== 'all' && !STATUSES.includes(status as InquiryStatus)) throw new ApiError('BAD_REQUEST');
    let list = ctx.db
      .selectFrom('inquiries')
      .select(['id', 'created_at', 'inquiry_type', 'ticket_no', 'content', 'status'])
      .where('user_id', '=', requireMember(request));
    if (status !== 'all') list = list.where('status', '=', status as InquiryStatus);
    const rows = await list
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      created_at: row.created_at,
      category: row.inquiry_type,
      ticket_no: row.ticket_no,
      subject: subjectOf(row.content),
      status: row.status,
    }));
  });
}
