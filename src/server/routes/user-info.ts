// GET and PUT /v1/user/info: the member's record as the spec names it (src/server/member-answer.ts
// builds the answer from the forms; src/server/member-store.ts stores the edit).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { currentMember } from '../auth';
import { activeMember } from '../members';
import { iso, now } from '../services/clock';
import { apiBody } from '../route-schemas';
import { formsOf } from '../validation';
import { memberStore } from '../member-store';
import { writeSearchKeys } from '../member-search-keys';
import { userInfo, userInfoSchema } from '../member-answer';

export { userInfo };

export function userInfoRoutes(app: FastifyInstance, ctx: AppContext) {
  const userInfoResponse = { 200: userInfoSchema(ctx.schemas) };
  app.get('/v1/user/info', { config: { auth: 'member' }, schema: { response: userInfoResponse } }, async (request) => userInfo(ctx, currentMember(request)));

  const store = memberStore(ctx.schemas);
  const [form] = formsOf(ctx.schemas.api['api.user-update.json']);
  app.put('/v1/user/info', { schema: { body: apiBody('api.user-update.json'), response: userInfoResponse }, config: { auth: 'member' } }, async (request) => {
    const body = request.body as Record<string, unknown>;
    await ctx.checkMasters('api.user-update.json', body);
    const member = currentMember(request);
    // Every field of the edit form is written: a field left empty is cleared. The e-mail address
    // (its own coded flow) is no field of the form, and the birthday is read-only in it
    // (ui:readonly): the payload carries both, neither is written here. Attributes are merged
    // into the row the session check read in this request.
    // The back office's search keys (names, phone) change with the record, in its transaction.
    await ctx.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('users')
        .set({ ...store.updateValues(form, body, member), updated_at: iso(now()) })
        .where('id', '=', member.id)
        .where('status', '=', 'active')
        .execute();
      await writeSearchKeys(tx, member.id);
    });
    return userInfo(ctx, await activeMember(ctx.db, member.id));
  });
}
