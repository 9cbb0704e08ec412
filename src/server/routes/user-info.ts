import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { requireMember } from '../auth';
import type { User } from '../db/types';
import type { UserInfo } from '../../shared/api-types';

/** The member as GET /v1/user/info answers: roman names as *_alpha, purpose as a comma string. */
export function userInfo(user: User): UserInfo {
  return {
    email: user.email,
    last_name_kanji: user.last_name_kanji,
    first_name_kanji: user.first_name_kanji,
    last_name_alpha: user.last_name_alpha,
    first_name_alpha: user.first_name_alpha,
    birthday: user.birthday,
    gender: user.gender,
    job: user.job,
    industry: user.industry,
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
  app.get('/v1/user/info', { config: { auth: 'member' } }, async (request) => {
    const user = await ctx.db.selectFrom('users').selectAll().where('id', '=', requireMember(request)).executeTakeFirst();
    if (!user) throw new ApiError('UNAUTHENTICATED');
    return userInfo(user);
  });
}
