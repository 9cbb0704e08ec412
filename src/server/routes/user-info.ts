// GET and PUT /v1/user/info: the member's profile as the spec names it.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { requireMember } from '../auth';
import { activeMember } from '../members';
import type { Db } from '../db/connect';
import type { User } from '../db/types';
import { masterOptions, unknownMasterFields } from '../masters';
import { iso, now } from '../services/clock';
import type { ProfileUpdate, UserInfo } from '../../shared/api-types';
import messages from '../../../messages/ja.json';

const DEFAULT_JOB = '1';
const DEFAULT_INDUSTRY = '8';


/** The member as GET /v1/user/info answers: roman names as *_alpha, purpose as a comma
 *  string; a saved job or industry no longer in its list reads as the default (1, 8). */
export async function userInfo(db: Db, user: User): Promise<UserInfo> {
  const [jobs, industries] = await Promise.all([masterOptions(db, 'job'), masterOptions(db, 'industry')]);
  const job = jobs.find((o) => o.value === user.job) ?? jobs.find((o) => o.value === DEFAULT_JOB);
  const industry = industries.some((o) => o.value === user.industry) ? user.industry : DEFAULT_INDUSTRY;
  return {
    email: user.email,
    last_name_kanji: user.last_name_kanji,
    first_name_kanji: user.first_name_kanji,
    last_name_alpha: user.last_name_alpha,
    first_name_alpha: user.first_name_alpha,
    birthday: user.birthday,
    gender: user.gender,
    job: job?.value ?? DEFAULT_JOB,
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
  app.get('/v1/user/info', { config: { auth: 'member' } }, async (request) => userInfo(ctx.db, await activeMember(ctx.db, requireMember(request))));

  app.put('/v1/user/info', { config: { auth: 'member' } }, async (request) => {
    const body = ctx.parse<ProfileUpdate>('api.user-update.json', request.body);
    const purpose = body.purpose.split(',').filter(Boolean);
    const badMasters = await unknownMasterFields(ctx.db, { ...body, purpose }, messages.api.MASTER_UNKNOWN);
    if (badMasters) throw new ApiError('VALIDATION', badMasters);
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
        industry_other: body.industry === '99' ? (body.industry_other ?? '') : '',
        zip_current: body.zip_current.replace(/-/g, ''),
        address_current: body.address_current,
        amc: body.amc ?? '',
        phone: body.phone.replace(/-/g, ''),
        purpose: purpose.join(','),
        purpose_detail: body.purpose_detail,
        purpose_other: purpose.includes('99') ? (body.purpose_other ?? '') : '',
        mail_opt: body.mail_opt,
        updated_at: iso(now()),
      })
      .where('id', '=', id)
      .where('status', '=', 'active')
      .execute();
    return userInfo(ctx.db, await activeMember(ctx.db, id));
  });
}
