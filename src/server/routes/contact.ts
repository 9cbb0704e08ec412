// Inquiries: sent by visitors and members (POST /v1/contact), listed for the member who sent
// them (GET /v1/user/contact/list) and shown to them one by one with the answer
// (GET /v1/user/contact/:id). Operators answer and close them with the operator tool.
import { randomInt, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { requireMember } from '../auth';
import { isUniqueViolation } from '../db/errors';
import { ApiError } from '../errors';
import { inquiryList, type ListStatus } from '../inquiry-list';
import { masterOptions } from '../masters';
import { iso, japanDay, now } from '../services/clock';
import { canonicalEmail } from '../../shared/canonical-email';
import type { MailTemplate } from '../mail/mailer';
import { apiBody, apiParams, apiResponse } from '../route-schemas';
import { routeSetting } from '../schema-settings';

interface ContactPayload {
  last_name_kanji: string;
  first_name_kanji: string;
  email: string;
  inquiry_user_type: string;
  inquiry_type: string;
  job: string;
  purpose_detail: string;
}

const SUBJECT_LENGTH = 40;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function ticketNumber(at: Date): string {
  return `Q${japanDay(at).slice(2)}-${String(randomInt(0, 100_000)).padStart(5, '0')}`;
}

/** The list's one-line subject: the start of the inquiry text. */
export function subjectOf(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  return [...line].length > SUBJECT_LENGTH ? `${[...line].slice(0, SUBJECT_LENGTH).join('')}…` : line;
}

export function contactRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post('/v1/contact', { schema: { body: apiBody('api.contact.json') }, config: { auth: 'client-or-member', limited: 'visitor' } }, async (request) => {
    const body = request.body as ContactPayload;
    await ctx.checkMasters('api.contact.json', { ...body });
    // A member's inquiry is theirs: their own name and address, whatever the form carried.
    const member = request.member ?? undefined;
    const sender = member
      ? { last_name_kanji: member.last_name_kanji, first_name_kanji: member.first_name_kanji, email: member.email }
      : { last_name_kanji: body.last_name_kanji, first_name_kanji: body.first_name_kanji, email: body.email };

    const at = now();
    const typeLabel = (await masterOptions(ctx.db, 'inquiry_type')).find((o) => o.value === body.inquiry_type)?.label ?? body.inquiry_type;
    // Only a member's acknowledgement, to the member's own verified address, quotes the inquiry.
    // A visitor may type anyone's address: theirs holds the ticket number and a fixed text, so
    // the form cannot make the site mail a stranger words of the visitor's choosing.
    const acknowledgement: { template: MailTemplate; values: Record<string, string> } = member
      ? { template: 'contactReceived', values: { name: `${sender.last_name_kanji} ${sender.first_name_kanji}`, typeLabel, content: body.purpose_detail } }
      : { template: 'contactReceivedVisitor', values: {} };
    const recipient = canonicalEmail(sender.email);
    const day = japanDay(at);
    let ticketNo = '';
    let ackId: string | undefined;
    for (let attempt = 0; !ticketNo; attempt++) {
      const candidate = ticketNumber(at);
      try {
        // The inquiry, the day's count of acknowledgements to its address and the acknowledgement
        // are written together. The count is one atomic upsert, so parallel inquiries cannot all
        // see room left; past the limit the inquiry is still stored and answered alike, unmailed.
        ackId = await ctx.db.transaction().execute(async (tx) => {
          await tx
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
          const { sent } = await tx
            .insertInto('acknowledgement_counts')
            .values({ recipient, day, sent: 1 })
            .onConflict((oc) => oc.columns(['recipient', 'day']).doUpdateSet((eb) => ({ sent: eb('acknowledgement_counts.sent', '+', 1) })))
            .returning('sent')
            .executeTakeFirstOrThrow();
          if (Number(sent) > ctx.config.limits.acknowledgementsPerDay) return undefined;
          return ctx.outbox.queue(tx, sender.email, acknowledgement.template, { ...acknowledgement.values, ticketNo: candidate });
        });
        ticketNo = candidate;
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= 5) throw error;
      }
    }
    if (ackId) await ctx.outbox.sendQueued(ackId);
    // Counts of earlier days are no longer needed (they name addresses): best effort, the
    // inquiry is stored whatever happens here.
    await ctx.db
      .deleteFrom('acknowledgement_counts')
      .where('day', '<', day)
      .execute()
      .catch(() => undefined);
    return { ticket_no: ticketNo };
  });

  const pageSize = routeSetting(ctx.schemas, 'contact_history', 'pageSize');
  // Read from keys, not skipped with OFFSET: a deep page costs what the first does (ADR 026).
  const history = inquiryList(ctx.db);
  const listQuery = { querystring: apiParams(ctx.schemas, 'api.contact-list-query.json'), response: { 200: apiResponse(ctx.schemas, 'api.contact-list-response.json') } };
  app.get('/v1/user/contact/list', { schema: listQuery, config: { auth: 'member' } }, async (request) => {
    // Bounded and typed by the query schema (schemas/api/contact-list-query.json).
    const query = request.query as { page?: number; size?: number; status?: ListStatus };
    const page = query.page ?? 1;
    const size = query.size ?? pageSize;
    const status = query.status ?? 'open';
    const rows = await history.page({ memberId: requireMember(request), status }, page, size);
    return rows.map((row) => ({
      id: row.id,
      created_at: row.created_at,
      category: row.inquiry_type,
      ticket_no: row.ticket_no,
      subject: subjectOf(row.content),
      status: row.status,
    }));
  });

  // One inquiry in full, only to the member who sent it: another member's id, a visitor's, an
  // unknown or malformed one all answer the same 404, so an id tells nothing about whose it is.
  const detail = { response: { 200: apiResponse(ctx.schemas, 'api.contact-detail-response.json') } };
  app.get('/v1/user/contact/:id', { schema: detail, config: { auth: 'member' } }, async (request) => {
    const memberId = requireMember(request);
    const { id } = request.params as { id: string };
    const row = UUID.test(id)
      ? await ctx.db
          .selectFrom('inquiries')
          .select(['id', 'created_at', 'updated_at', 'inquiry_type', 'ticket_no', 'content', 'status', 'answer'])
          .where('id', '=', id)
          .where('user_id', '=', memberId)
          .executeTakeFirst()
      : undefined;
    if (!row) throw new ApiError('NOT_FOUND');
    return {
      id: row.id,
      created_at: row.created_at,
      updated_at: row.updated_at,
      category: row.inquiry_type,
      ticket_no: row.ticket_no,
      content: row.content,
      status: row.status,
      answer: row.answer,
    };
  });
}
