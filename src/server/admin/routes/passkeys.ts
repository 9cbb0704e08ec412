// An operator's own passkeys (docs/decisions/031), from their account screen: list, add, remove.
// A passkey stands in for the mailed code at login (routes/auth.ts). Adding and removing are
// audited in the transaction that makes the change.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import text from '../../../../messages/admin.ja.json';
import { apiBody, apiParams, apiResponse } from '../../route-schemas';
import type { AdminContext } from '../context';
import { currentOperator } from '../guard';
import { audited } from '../audit';
import type { PasskeyItem } from '../../../shared/admin-api';

export function adminPasskeyRoutes(app: FastifyInstance, ctx: AdminContext): void {
  const { adminGuard } = ctx.admin;
  const ownerOf = (request: FastifyRequest) => ({ type: 'operator' as const, id: currentOperator(request).id });
  const actorOf = (request: FastifyRequest) => {
    const { id, email, name, role } = currentOperator(request);
    return { type: 'operator' as const, id, email, name, role };
  };
  const list = { 200: apiResponse(ctx.schemas, 'api.passkey-list-response.json') };

  app.get('/v1/admin/account/passkeys', { preValidation: adminGuard('session.own'), schema: { response: list } }, async (request): Promise<{ items: PasskeyItem[] }> => ({
    items: await ctx.passkeys.list(ownerOf(request)),
  }));

  app.post('/v1/admin/account/passkeys/options', { preValidation: adminGuard('session.own') }, async (request) => {
    const operator = currentOperator(request);
    return ctx.passkeys.registrationOptions(ownerOf(request), { rpName: text.site.name, userName: operator.email, displayName: operator.name });
  });

  app.post('/v1/admin/account/passkeys', { preValidation: adminGuard('session.own'), schema: { body: apiBody('api.admin-passkey-add.json') } }, async (request, reply) => {
    const { name, response } = request.body as { name: string; response: RegistrationResponseJSON };
    const credential = await ctx.passkeys.verifyRegistration(ownerOf(request), response);
    const passkey = await audited(ctx.db, { actor: actorOf(request), ip: request.ip }, 'passkeys.add', async (tx) => ({
      result: await ctx.passkeys.store(tx, ownerOf(request), name, credential),
      target: currentOperator(request).email,
      detail: { passkey: name },
    }));
    return reply.code(201).send({ passkey });
  });

  app.delete('/v1/admin/account/passkeys/:id', { preValidation: adminGuard('session.own'), schema: { params: apiParams(ctx.schemas, 'api.passkey-id-params.json') } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    await audited(ctx.db, { actor: actorOf(request), ip: request.ip }, 'passkeys.remove', async (tx) => ({
      result: undefined,
      target: currentOperator(request).email,
      detail: { passkey: await ctx.passkeys.remove(tx, ownerOf(request), id) },
    }));
    return reply.code(204).send();
  });
}
