// Japanese mail, plain text and HTML, over SMTP (the embedded catcher by default).
import nodemailer from 'nodemailer';
import messages from '../../../messages/ja.json';
import mail from '../../../messages/mail.ja.json';
import { format } from '../../shared/format';

export type MailTemplate = keyof typeof mail.templates;

/** Filled into every template and the footer from configuration (src/server/config.ts
 *  mailLinksOf): how to reach the secretariat, and where to log in. */
export interface MailLinks {
  supportUrl: string;
  supportPhone: string;
  supportHours: string;
  loginUrl: string;
}

export interface SendOptions {
  /** A stable key of this mail (the outbox's row id): its Message-ID is made from it, so every
   *  send of the same row, an operator's resend too, carries the same Message-ID. */
  key?: string;
}

export interface Mailer {
  send(to: string, template: MailTemplate, values?: Record<string, string | number>, options?: SendOptions): Promise<void>;
  /** A round trip to the relay that sends nothing: the same wait as a send, for an answer that
   *  must not be told apart from one that mailed (a notice combined with others of the day). */
  touch?(): Promise<void>;
}

/** `<key@the sender's domain>` (RFC 5322 msg-id); the domain of `from`, whether written as
 *  `Name <address>` or as a bare address. */
export function messageIdOf(key: string, from: string): string {
  const domain = /@([^\s<>@]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${key}@${domain}>`;
}

/** A text as HTML content or an attribute value (the mails' HTML part, the disclosure's file). */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** What every template may name besides its own values. */
const EVERY_MAIL = { site: messages.site.name, operator: mail.operator };

export function renderMail(template: MailTemplate, values: Record<string, string | number>, links: MailLinks) {
  const all = { ...EVERY_MAIL, ...links, ...values };
  const text = `${format(mail.templates[template].body, all)}\n\n――――――――――\n${format(mail.footer, all)}\n`;
  const html = `<!doctype html><html lang="ja"><body style="font-family:sans-serif;line-height:1.7;color:#222">${text
    .split('\n')
    .map((line) => escapeHtml(line) || '&nbsp;')
    .map((line) => `<div>${line}</div>`)
    .join('')}</body></html>`;
  return { subject: subjectOf(template, { ...links, ...values }), text, html };
}

/** The subject a queued mail went out with (what the back office lists of an inquiry's mails);
 *  a template this version no longer has is named as stored. */
export function subjectOf(template: string, values: Record<string, string | number>): string {
  const known = (mail.templates as Record<string, { subject: string } | undefined>)[template];
  return known ? format(known.subject, { ...EVERY_MAIL, ...values }) : template;
}

/** A relay that accepts the connection but never answers must not hold a request for
 *  nodemailer's default minutes: connect, greeting and every socket wait get `timeoutMs`. */
export function createMailer(smtpUrl: string, from: string, timeoutMs: number, links: MailLinks): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
  });
  return {
    async send(to, template, values, options) {
      const messageId = options?.key ? messageIdOf(options.key, from) : undefined;
      await transport.sendMail({ from, to, ...(messageId ? { messageId } : {}), ...renderMail(template, values ?? {}, links) });
    },
    async touch() {
      await transport.verify();
    },
  };
}
