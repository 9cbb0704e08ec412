// The earlier generation's registration by link, kept apart from the route modules so that the
// coded registration's POST /v1/email/register can hand its `flow: "link"` requests over here.
import type { AppContext } from './context';
import { createRegistrationLinks } from './services/registration-links';
import { isTaken } from './registrations';
import { format } from '../shared/format';
import { keyedLink } from '../shared/parent-link';
import catalogue from '../../schemas/catalogue.json';
import mail from '../../messages/mail.ja.json';

/** Where the mailed link opens: the old registration screen (docs/decisions/006). */
const LINK_ROUTE = `${catalogue.basePath}/old/register`;

export function lifetimeText(seconds: number): string {
  return seconds % 3600 === 0 ? format(mail.durations.hours, { n: seconds / 3600 }) : format(mail.durations.minutes, { n: Math.ceil(seconds / 60) });
}

export function oldFlow(ctx: AppContext) {
  const links = createRegistrationLinks(ctx.db, { secret: ctx.secret, registrationLinkSeconds: ctx.config.registrationLinkSeconds }, ctx.limits);
  return {
    links,
    /** Mails a registration link; a registered address gets, after the same work and with the
     *  same answer, a notice that someone tried to register it instead (no enumeration). */
    async mailLink(email: string, network: string): Promise<void> {
      const taken = await isTaken(ctx.db, email);
      await links.issue(email, network, async (key) => {
        if (taken) return ctx.notices.instead(email, 'registerAttempted');
        // The parent site's page with the old registration screen in its frame, not the bare app.
        const url = keyedLink(ctx.config.siteTopUrl, LINK_ROUTE, key);
        await ctx.mailer.send(email, 'registerLink', { url, lifetime: lifetimeText(ctx.config.registrationLinkSeconds) });
      });
    },
  };
}

export type OldFlow = ReturnType<typeof oldFlow>;
