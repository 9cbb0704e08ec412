// A member's passkeys (docs/decisions/031): list, add (after a normal login; a mail confirms it),
// remove (a mail again), and the usernameless login from the login screen. None of these routes
// is counted per IP and none touches the password or code counters: a passkey cannot be guessed,
// so nothing a stranger does may hold a member's way in (docs/decisions/015).
import type { FastifyInstance } from 'fastify';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { currentMember } from '../auth';
import { apiBody, apiParams, apiResponse } from '../route-schemas';
import type { User } from '../db/types';
import messages from '../../../messages/ja.json';

const fullName = (member: Pick<User, 'last_name_kanji' | 'first_name_kanji'>) => `${member.last_name_kanji} ${member.first_name_kanji}`;

export function passkeyRoutes(app: FastifyInstance, ctx: AppContext) {
  const owner = (member: User) => ({ type: 'member' as const, id: member.id });
  const list = { 200: apiResponse(ctx.schemas, 'api.passkey-list-response.json') };

  app.get('/v1/user/passkeys', { config: { auth: 'member' }, schema: { response: list } }, async (request) => ({ items: await ctx.passkeys.list(owner(currentMember(request))) }));

  app.post('/v1/user/passkeys/options', { config: { auth: 'member' } }, async (request) => {
    const member = currentMember(request);
    return ctx.passkeys.registrationOptions(owner(member), { rpName: messages.site.name, userName: member.email, displayName: fullName(member) });
  });

  app.post('/v1/user/passkeys', { config: { auth: 'member' }, schema: { body: apiBody('api.user-passkey-add.json') } }, async (request, reply) => {
    const { name, response } = request.body as { name: string; response: RegistrationResponseJSON };
    const member = currentMember(request);
    const credential = await ctx.passkeys.verifyRegistration(owner(member), response);
    // The passkey and the mail that tells the member of it are kept together.
    const { passkey, mailId } = await ctx.db.transaction().execute(async (tx) => {
      const passkey = await ctx.passkeys.store(tx, owner(member), name, credential);
      return { passkey, mailId: await ctx.outbox.queue(tx, member.email, 'passkeyAdded', { name: fullName(member), passkey: name }) };
    });
    await ctx.outbox.sendQueued(mailId);
    return reply.code(201).send({ passkey });
  });

  app.delete('/v1/user/passkeys/:id', { config: { auth: 'member' }, schema: { params: apiParams(ctx.schemas, 'api.passkey-id-params.json') } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const member = currentMember(request);
    const mailId = await ctx.db.transaction().execute(async (tx) => {
      const name = await ctx.passkeys.remove(tx, owner(member), id);
      return ctx.outbox.queue(tx, member.email, 'passkeyRemoved', { name: fullName(member), passkey: name });
    });
    await ctx.outbox.sendQueued(mailId);
    return reply.code(204).send();
  });

  // The login: the authenticator offers the member's discoverable passkeys (no address asked).
  app.post('/v1/user/passkey-login/options', { config: { auth: 'client' } }, async () => ctx.passkeys.authenticationOptions('member'));

  app.post('/v1/user/passkey-login', { config: { auth: 'client' }, schema: { body: apiBody('api.user-passkey-login.json') } }, async (request) => {
    const { response } = request.body as { response: AuthenticationResponseJSON };
    const passkey = await ctx.passkeys.authenticate('member', response);
    const member = await ctx.db.selectFrom('users').select('id').where('id', '=', passkey.owner_id).where('status', '=', 'active').executeTakeFirst();
    if (!member) throw new ApiError('PASSKEY_FAILED');
    // The same session a password and a code open (routes/user-auth.ts), and the same answer.
    const session = await ctx.sessions.open(member.id);
    return { token: session.token, expires_in: session.expiresIn, ends_in: session.endsIn };
  });
}
