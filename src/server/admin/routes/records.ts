// /v1/admin/applications, notices, inquiries, members, stats and audit (docs/decisions/030,
// issue 23). Each route names one action of src/server/admin/permissions.ts in its guard; the
// work is done by the services in ../services, which the command-line tool calls too, and
// every change and every view or export of a member's data leaves one audit entry.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadConfig, mailLinksOf } from '../../config';
import { renderMail, type MailLinks, type MailTemplate } from '../../mail/mailer';
import { apiBody, apiParams } from '../../route-schemas';
import { japanDay, now } from '../../services/clock';
import type { AdminContext } from '../context';
import { currentOperator } from '../guard';
import { tryMail, type Who } from '../services/common';
import * as applications from '../services/applications';
import * as notices from '../services/notices';
import * as inquiries from '../services/inquiries';
import * as members from '../services/members';
import * as requests from '../services/requests';
import { RECORD_KINDS, type RecordKind } from '../../../shared/record-kinds';
import { listRecords, type Filters } from '../records/list';
import { statsSnapshot } from '../services/stats-snapshot';
import type {
  AnswerInput,
  AnswerPreview,
  AnswerSent,
  AssignableOperators,
  AssignInput,
  CorrectionInput,
  DecisionAnswer,
  DecisionInput,
  DecisionPreview,
  InquiryClosed,
  MailPreview,
  NoticeInput,
  NoticeRetracted,
  RequestHandleInput,
  ReversalInput,
  Stats,
} from '../../../shared/admin-api';

/** The operator behind the request and the address it came from, for the audit log. */
export function whoOf(request: FastifyRequest): Who {
  const { id, email, name, role } = currentOperator(request);
  return { actor: { type: 'operator', id, email, name, role }, ip: request.ip };
}

let links: MailLinks | undefined;
/** What the mails link to, as the server's configuration gives it (for previews). */
function mailLinks(): MailLinks {
  if (!links) {
    try {
      links = mailLinksOf(loadConfig(process.env));
    } catch {
      links = mailLinksOf(loadConfig({}));
    }
  }
  return links;
}

const mailPreview = (template: MailTemplate, values: Record<string, string>): Omit<MailPreview, 'to'> => {
  const { subject, text } = renderMail(template, values, mailLinks());
  return { subject, body: text };
};

interface PageQuery {
  page?: number;
  size?: number;
}

export function adminRecordRoutes(app: FastifyInstance, ctx: AdminContext): void {
  const { db, outbox, schemas } = ctx;
  const guard = ctx.admin.adminGuard;
  const params = (id: string) => apiParams(schemas, id);

  /** A kind's list as its declaration says (schemas/records), from the request's query string. */
  const list = async (kind: RecordKind, request: FastifyRequest, overrides: Filters = {}) => {
    const query = request.query as Filters & PageQuery;
    const { filter: _filter, last: _last, ...page } = await listRecords(db, schemas, kind, { filters: { ...query, ...overrides }, sort: query.sort, page: query.page, size: query.size }, whoOf(request));
    return page;
  };

  // Applications ---------------------------------------------------------------------------

  app.get('/v1/admin/applications', { preValidation: guard('applications.view'), schema: { querystring: params('api.admin-applications-query.json') } }, async (request) => {
    return list(RECORD_KINDS.applications, request);
  });

  app.get(
    '/v1/admin/applications/:registerNumber',
    { preValidation: guard('applications.view'), schema: { params: params('api.admin-register-number-params.json') } },
    async (request) => applications.applicationDetail(db, schemas, whoOf(request), (request.params as { registerNumber: string }).registerNumber),
  );

  app.post(
    '/v1/admin/applications/:registerNumber/preview',
    { preValidation: guard('applications.decide'), config: { limited: 'operator' }, schema: { params: params('api.admin-register-number-params.json'), body: apiBody('api.admin-decision.json') } },
    async (request): Promise<DecisionPreview> => {
      const body = request.body as DecisionInput;
      const { row, mail, notice } = await applications.previewDecision(db, (request.params as { registerNumber: string }).registerNumber, body.decision, body.reason ?? '');
      return { member: { name: applications.fullName(row), email: row.email }, mail: { to: row.email, ...mailPreview(mail.template, mail.values) }, notice };
    },
  );

  app.post(
    '/v1/admin/applications/:registerNumber/decision',
    { preValidation: guard('applications.decide'), config: { limited: 'operator' }, schema: { params: params('api.admin-register-number-params.json'), body: apiBody('api.admin-decision.json') } },
    async (request): Promise<DecisionAnswer> => {
      const body = request.body as DecisionInput;
      const done = await applications.decideApplication(db, outbox, whoOf(request), (request.params as { registerNumber: string }).registerNumber, body.decision, body.reason ?? '');
      return { application: done.application, notice: done.notice, mail: await tryMail(outbox, done.mailId, done.email) };
    },
  );

  app.post(
    '/v1/admin/applications/:registerNumber/reversal',
    { preValidation: guard('applications.reverse'), config: { limited: 'operator' }, schema: { params: params('api.admin-register-number-params.json'), body: apiBody('api.admin-reversal.json') } },
    async (request): Promise<DecisionAnswer> => {
      const body = request.body as ReversalInput;
      const done = await applications.reverseDecision(db, outbox, whoOf(request), (request.params as { registerNumber: string }).registerNumber, body.reason);
      return { application: done.application, notice: done.notice, mail: await tryMail(outbox, done.mailId, done.email) };
    },
  );

  // Notices --------------------------------------------------------------------------------

  app.get('/v1/admin/notices', { preValidation: guard('notices.view'), schema: { querystring: params('api.admin-page-query.json') } }, async (request) => list(RECORD_KINDS.notices, request));

  app.post('/v1/admin/notices/preview', { preValidation: guard('notices.send'), config: { limited: 'operator' }, schema: { body: apiBody('api.admin-notice.json') } }, async (request) =>
    notices.previewNotice(db, request.body as NoticeInput),
  );

  app.post('/v1/admin/notices', { preValidation: guard('notices.send'), config: { limited: 'operator' }, schema: { body: apiBody('api.admin-notice.json') } }, async (request, reply) => {
    const sent = await notices.sendNotice(db, whoOf(request), request.body as NoticeInput);
    return reply.code(201).send(sent);
  });

  app.post('/v1/admin/notices/:id/retract', { preValidation: guard('notices.retract'), config: { limited: 'operator' }, schema: { params: params('api.admin-id-params.json') } }, async (request): Promise<NoticeRetracted> => ({
    notice: await notices.retractNotice(db, whoOf(request), (request.params as { id: string }).id),
  }));

  // Inquiries ------------------------------------------------------------------------------

  app.get('/v1/admin/inquiries', { preValidation: guard('inquiries.view'), schema: { querystring: params('api.admin-inquiries-query.json') } }, async (request) => {
    const query = request.query as Filters;
    // 'all' (the screen's tab of every status) is the list without a status.
    return list(RECORD_KINDS.inquiries, request, query.status === 'all' ? { status: undefined } : {});
  });

  app.get('/v1/admin/inquiries/operators', { preValidation: guard('inquiries.view') }, async (): Promise<AssignableOperators> => ({ items: await inquiries.assignableOperators(db) }));

  app.get('/v1/admin/inquiries/:id', { preValidation: guard('inquiries.view'), schema: { params: params('api.admin-id-params.json') } }, async (request) =>
    inquiries.inquiryDetail(db, whoOf(request), (request.params as { id: string }).id),
  );

  app.post(
    '/v1/admin/inquiries/:id/answer/preview',
    { preValidation: guard('inquiries.handle'), config: { limited: 'operator' }, schema: { params: params('api.admin-id-params.json'), body: apiBody('api.admin-answer.json') } },
    async (request): Promise<AnswerPreview> => {
      const preview = await inquiries.previewAnswer(db, (request.params as { id: string }).id, (request.body as AnswerInput).answer);
      return { mail: { to: preview.to.email, name: preview.to.name, ...mailPreview(preview.template, preview.values) } };
    },
  );

  app.post(
    '/v1/admin/inquiries/:id/answer',
    { preValidation: guard('inquiries.handle'), config: { limited: 'operator' }, schema: { params: params('api.admin-id-params.json'), body: apiBody('api.admin-answer.json') } },
    async (request, reply) => {
      const done = await inquiries.answerInquiry(db, outbox, whoOf(request), { id: (request.params as { id: string }).id }, (request.body as AnswerInput).answer);
      const answer: AnswerSent = { answer_id: done.answerId, status: 'answered', notice: done.notice ?? null, mail: await tryMail(outbox, done.mailId, done.to.email) };
      return reply.code(201).send(answer);
    },
  );

  app.post(
    '/v1/admin/inquiries/:id/answers/:answerId/correction/preview',
    { preValidation: guard('inquiries.handle'), config: { limited: 'operator' }, schema: { params: params('api.admin-answer-params.json'), body: apiBody('api.admin-correction.json') } },
    async (request): Promise<AnswerPreview> => {
      const body = request.body as CorrectionInput;
      const preview = await inquiries.previewCorrection(db, (request.params as { id: string }).id, body.answer, body.note);
      return { mail: { to: preview.to.email, name: preview.to.name, ...mailPreview(preview.template, preview.values) } };
    },
  );

  app.post(
    '/v1/admin/inquiries/:id/answers/:answerId/correction',
    { preValidation: guard('inquiries.handle'), config: { limited: 'operator' }, schema: { params: params('api.admin-answer-params.json'), body: apiBody('api.admin-correction.json') } },
    async (request, reply) => {
      const { id, answerId } = request.params as { id: string; answerId: string };
      const body = request.body as CorrectionInput;
      const done = await inquiries.correctAnswer(db, outbox, whoOf(request), id, answerId, body.answer, body.note);
      const answer: AnswerSent = { answer_id: done.answerId, notice: done.notice ?? null, mail: await tryMail(outbox, done.mailId, done.to.email) };
      return reply.code(201).send(answer);
    },
  );

  app.post(
    '/v1/admin/inquiries/:id/assign',
    { preValidation: guard('inquiries.handle'), config: { limited: 'operator' }, schema: { params: params('api.admin-id-params.json'), body: apiBody('api.admin-assign.json') } },
    async (request) => inquiries.assignInquiry(db, whoOf(request), (request.params as { id: string }).id, (request.body as AssignInput).operator_id),
  );

  app.post('/v1/admin/inquiries/:id/done', { preValidation: guard('inquiries.handle'), config: { limited: 'operator' }, schema: { params: params('api.admin-id-params.json') } }, async (request): Promise<InquiryClosed> => {
    const { row, previous } = await inquiries.closeInquiry(db, whoOf(request), { id: (request.params as { id: string }).id });
    return { id: row.id, ticket_no: row.ticket_no, status: 'closed', previous };
  });

  // Members' correction and deletion requests (schemas/records/requests.json, ADR 042) ---------

  app.get('/v1/admin/requests', { preValidation: guard('requests.view'), schema: { querystring: params('api.admin-requests-query.json') } }, async (request) => list(RECORD_KINDS.requests, request));

  app.get('/v1/admin/requests/:id', { preValidation: guard('requests.view'), schema: { params: params('api.admin-id-params.json') } }, async (request) =>
    requests.requestDetail(db, whoOf(request), (request.params as { id: string }).id),
  );

  app.post(
    '/v1/admin/requests/:id/handle',
    { preValidation: guard('requests.handle'), config: { limited: 'operator' }, schema: { params: params('api.admin-id-params.json'), body: apiBody('api.admin-request-handle.json') } },
    async (request) => requests.handleRequest(db, outbox, whoOf(request), (request.params as { id: string }).id, request.body as RequestHandleInput),
  );

  // Members --------------------------------------------------------------------------------

  app.get('/v1/admin/members', { preValidation: guard('members.view'), schema: { querystring: params('api.admin-members-query.json') } }, async (request) => {
    return list(RECORD_KINDS.members, request);
  });

  app.get('/v1/admin/members/export-columns', { preValidation: guard('members.export') }, async () => members.exportColumns(schemas));

  app.get(
    '/v1/admin/members/export.csv',
    { preValidation: guard('members.export'), schema: { querystring: params('api.admin-export-query.json') } },
    async (request, reply: FastifyReply) => {
      const raw = (request.query as { columns?: string }).columns ?? '';
      const { columns } = ctx.parse<{ columns: string[] }>('api.admin-member-export.json', { columns: raw.split(',').map((c) => c.trim()).filter(Boolean) });
      const rows = await members.exportMembers(db, schemas, whoOf(request), columns, members.exportFilterOf(request.query as Filters));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="members-${japanDay(now())}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(rows));
    },
  );

  app.get('/v1/admin/members/:id', { preValidation: guard('members.view'), schema: { params: params('api.admin-id-params.json') } }, async (request) =>
    members.memberDetail(db, schemas, whoOf(request), (request.params as { id: string }).id),
  );

  // Statistics and the audit log -----------------------------------------------------------

  app.get('/v1/admin/stats', { preValidation: guard('stats.view') }, async (): Promise<Stats> => statsSnapshot(db, { municipalities: ctx.municipalities }));

  app.get('/v1/admin/audit', { preValidation: guard('audit.view'), schema: { querystring: params('api.admin-audit-query.json') } }, async (request) => {
    return list(RECORD_KINDS.audit, request);
  });
}
