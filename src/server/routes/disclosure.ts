// My data, the disclosure (issue 37, docs/decisions/040): the member's data as one document
// (GET /v1/user/disclosure), its download as JSON or HTML (recorded in the audit log as the
// member's own action, and confirmed by mail), and requests for a correction or deletion
// (POST /v1/user/requests, confirmed by mail). Downloads and requests count against the member
// (`limited: 'member'`: the member's hourly budget, ADR 015), never against an IP.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { currentMember } from '../auth';
import { apiBody, apiParams } from '../route-schemas';
import { routeSetting } from '../schema-settings';
import { audited } from '../admin/audit';
import { fullName } from '../admin/services/applications';
import { exportColumns } from '../admin/services/members';
import { disclosureOf } from '../disclosure/document';
import { disclosureHtml } from '../disclosure/html';
import { createMemberRequest } from '../disclosure/requests';
import { formatDate, formatDateTime } from '../../shared/format-date';
import type { MemberRequestKind } from '../db/types';
import operatorTexts from '../../../messages/operator.ja.json';
import messages from '../../../messages/ja.json';

const DISCLOSURE_SCHEMA = 'api.user-disclosure.json';

/** disclosure-20261129.json: dated in Japan time. */
function fileName(extension: string, at: Date = new Date()): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at).replaceAll('-', '');
  return `disclosure-${day}.${extension}`;
}

export function disclosureRoutes(app: FastifyInstance, ctx: AppContext) {
  const schema = ctx.schemas.api[DISCLOSURE_SCHEMA];
  if (!schema) throw new Error(`No API schema ${DISCLOSURE_SCHEMA}`);
  const labels = new Map(exportColumns(ctx.schemas).map((column) => [column.name, column.label]));
  const columnLabel = (name: string) => labels.get(name) ?? name;
  const view = { formatDateTime, dash: messages.common.dash, listSeparator: messages.info.listSeparator };

  app.get('/v1/user/disclosure', { config: { auth: 'member' } }, async (request) => disclosureOf(ctx.db, ctx.schemas, currentMember(request), columnLabel));

  app.get(
    '/v1/user/disclosure/download',
    { schema: { querystring: apiParams(ctx.schemas, 'api.user-disclosure-download-query.json') }, config: { auth: 'member', limited: 'member' } },
    async (request, reply) => {
      const { format } = request.query as { format: 'json' | 'html' };
      const member = currentMember(request);
      // The download and the mail that confirms it are recorded together; the file then lists it.
      const mailId = await audited(ctx.db, { actor: { type: 'member', id: member.id }, ip: request.ip }, 'disclosure.download', async (tx, entry) => ({
        result: await ctx.outbox.queue(tx, member.email, 'disclosureDownloaded', { name: fullName(member), format: format.toUpperCase(), at: formatDateTime(entry.at) }),
        memberId: member.id,
        detail: { format },
      }));
      await ctx.outbox.sendQueued(mailId);
      const doc = await disclosureOf(ctx.db, ctx.schemas, member, columnLabel);
      const [body, type] = format === 'json' ? [`${JSON.stringify(doc, null, 2)}\n`, 'application/json; charset=utf-8'] : [disclosureHtml(schema, doc, view), 'text/html; charset=utf-8'];
      return reply
        .header('content-type', type)
        .header('content-disposition', `attachment; filename="${fileName(format)}"`)
        .header('x-content-type-options', 'nosniff')
        .send(body);
    },
  );

  app.post('/v1/user/requests', { schema: { body: apiBody('api.user-data-request.json') }, config: { auth: 'member', limited: 'member' } }, async (request, reply) => {
    const { kind, text } = request.body as { kind: MemberRequestKind; text: string };
    const member = currentMember(request);
    const dueDays = routeSetting(ctx.schemas, 'disclosure', 'requestDueDays');
    const { row, mailId } = await ctx.db.transaction().execute(async (tx) => {
      const row = await createMemberRequest(tx, member.id, { kind, text }, dueDays);
      const kindWord = operatorTexts.memberRequests.kinds[kind];
      const mailId = await ctx.outbox.queue(tx, member.email, 'requestReceived', { name: fullName(member), kind: kindWord, text, due: formatDate(row.due_at) });
      return { row, mailId };
    });
    await ctx.outbox.sendQueued(mailId);
    return reply.code(201).send({ request: { id: row.id, kind: row.kind, text: row.text, created_at: row.created_at, due_at: row.due_at, status: row.status, handled_at: null, answer: null } });
  });
}
