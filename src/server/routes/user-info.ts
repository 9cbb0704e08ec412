// GET and PUT /v1/user/info: the member's profile as the spec names it.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { currentMember, requireMember } from '../auth';
import { activeMember } from '../members';
import type { User } from '../db/types';
import { masterOptions } from '../masters';
import { fieldDefaults } from '../../shared/validation/schema-nodes';
import { iso, now } from '../services/clock';
import type { UserInfo } from '../../shared/api-types';
import type { ProfileForm } from '../../shared/wire/profile-update';
import { apiBody, apiResponse } from '../route-schemas';

// The registration form's defaults, read once per schema set (not on every profile answer).
const DEFAULTS = new WeakMap<AppContext['schemas'], Record<string, unknown>>();
function defaultsOf(schemas: AppContext['schemas']) {
  let defaults = DEFAULTS.get(schemas);
  if (!defaults) DEFAULTS.set(schemas, (defaults = fieldDefaults(schemas.forms['register-profile'].schema)));
  return defaults;
}

/** The member as GET /v1/user/info answers: roman names as *_alpha, purpose as a comma
 *  string; a saved job or industry no longer in its list reads as the registration form's
 *  default for it. */
export async function userInfo(ctx: Pick<AppContext, 'db' | 'schemas'>, user: User): Promise<UserInfo> {
  const { db } = ctx;
  const defaults = defaultsOf(ctx.schemas);
  const defaultJob = String(defaults.job ?? '');
  const defaultIndustry = String(defaults.industry ?? '');
  const [jobs, industries] = await Promise.all([masterOptions(db, 'job'), masterOptions(db, 'industry')]);
  const job = jobs.find((o) => o.value === user.job) ?? jobs.find((o) => o.value === defaultJob);
  const industry = industries.some((o) => o.value === user.industry) ? user.industry : defaultIndustry;
  return {
    email: user.email,
    last_name_kanji: user.last_name_kanji,
    first_name_kanji: user.first_name_kanji,
    last_name_alpha: user.last_name_alpha,
    first_name_alpha: user.first_name_alpha,
    birthday: user.birthday,
    gender: user.gender,
    job: job?.value ?? defaultJob,
    jobLabel: job?.label,
    industry,
    industry_other: user.industry_other,
    zip_current: user.zip_current,
    address_current: user.address_current,
    amc: user.amc,
    phone: user.phone,
    purpose: user.purpose,
    purpose_detail: user.purpose_detail,
    purpose_other: user.purpose_other,
    mail_opt: user.mail_opt,
  };
}

export function userInfoRoutes(app: FastifyInstance, ctx: AppContext) {
  const userInfoResponse = { 200: apiResponse(ctx.schemas, 'api.user-info-response.json') };
  app.get('/v1/user/info', { config: { auth: 'member' }, schema: { response: userInfoResponse } }, async (request) => userInfo(ctx, currentMember(request)));

  app.put('/v1/user/info', { schema: { body: apiBody('api.user-update.json'), response: userInfoResponse }, config: { auth: 'member' } }, async (request) => {
    const body = request.body as ProfileForm & { email: string };
    await ctx.checkMasters('api.user-update.json', body);
    const id = requireMember(request);
    // E-mail changes go through their own coded flow, and the birthday is read-only: the
    // payload carries both, neither is written here.
    await ctx.db
      .updateTable('users')
      .set({
        last_name_kanji: body.last_name_kanji,
        first_name_kanji: body.first_name_kanji,
        last_name_alpha: body.last_name_alpha,
        first_name_alpha: body.first_name_alpha,
        gender: body.gender,
        job: body.job,
        industry: body.industry,
        // Validation dropped the "other" texts whose choice is not made (src/shared/validation/conditions.ts).
        industry_other: body.industry_other ?? '',
        zip_current: body.zip_current,
        address_current: body.address_current,
        amc: body.amc ?? '',
        phone: body.phone,
        purpose: body.purpose.join(','),
        purpose_detail: body.purpose_detail,
        purpose_other: body.purpose_other ?? '',
        mail_opt: body.mail_opt,
        updated_at: iso(now()),
      })
      .where('id', '=', id)
      .where('status', '=', 'active')
      .execute();
    return userInfo(ctx, await activeMember(ctx.db, id));
  });
}
