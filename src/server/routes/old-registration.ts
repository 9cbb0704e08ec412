// The earlier generation's registration by link: GET /v1/email/verify?key=… tells the old
// registration screen which address its link proves; POST /v1/user/register-by-link creates
// the member with the old form's own rules (docs/decisions/006). The link itself is mailed by
// POST /v1/email/register with flow "link".
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { apiBody, apiParams } from '../route-schemas';
import { oldFlow } from '../old-flow';
import { insertMember, isTaken } from '../registrations';
import { hashPassword } from '../services/passwords';
import { formsOf } from '../validation';
import { memberStore } from '../member-store';
import messages from '../../../messages/ja.json';
import { refusal } from '../server-checks';

/** The old form's validated data and the link's key. */
type OldRegistration = Record<string, unknown> & { key: string; email: string; password: string; city: string };

export function oldRegistrationRoutes(app: FastifyInstance, ctx: AppContext) {
  const { links } = oldFlow(ctx);
  const store = memberStore(ctx.schemas);
  const [form] = formsOf(ctx.schemas.api['api.user-register-by-link.json']);

  // A missing or malformed key is refused by the query schema (schemas/api/email-verify-query.json).
  app.get('/v1/email/verify', { schema: { querystring: apiParams(ctx.schemas, 'api.email-verify-query.json') } }, async (request) => {
    const { key } = request.query as { key: string };
    const link = await links.check(key);
    // A link whose address has meanwhile become a member's can no longer register anyone.
    if (!link || (await isTaken(ctx.db, link.email))) throw refusal('linkInvalid');
    return { email: link.email };
  });

  app.post('/v1/user/register-by-link', { schema: { body: apiBody('api.user-register-by-link.json') }, config: { auth: 'client' } }, async (request) => {
    const body = request.body as OldRegistration;
    // The desired municipality is judged against the served denshijiti list (not an option
    // list in the database); the other option lists as everywhere.
    if (!ctx.municipalities.some((m) => m.value === body.city)) throw new ApiError('VALIDATION', { city: [messages.api.MASTER_UNKNOWN] });
    await ctx.checkMasters('api.user-register-by-link.json', { ...body, city: undefined });
    // The link is checked before the (deliberately slow) password hash, so bogus submissions
    // cost the server nothing.
    const link = await links.check(body.key);
    if (!link) throw refusal('linkInvalid');
    if (link.email !== body.email) throw new ApiError('VALIDATION', { email: [messages.api.LINK_EMAIL_MISMATCH] });
    const passwordHash = await hashPassword(body.password);

    const { registerNumber, welcomeId } = await insertMember(ctx.db, ctx.outbox, store, { email: body.email, form, data: body }, passwordHash, async (tx) => {
      if (!(await links.use(tx, link.id))) throw refusal('linkInvalid');
      // Other links to the same address are spent too: the address now belongs to a member.
      await links.useAllFor(tx, link.email);
    });
    // The welcome mail was queued with the member; a relay outage only delays it (no error).
    await ctx.outbox.sendQueued(welcomeId);
    return { message: 'registered', register_number: registerNumber };
  });
}
