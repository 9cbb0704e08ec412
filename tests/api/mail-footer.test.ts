// Every mail ends with how to reach the secretariat, from configuration (SUPPORT_URL,
// SUPPORT_PHONE, SUPPORT_HOURS), and its links open the parent site with the app in its frame.
// The templates are iterated from messages/mail.ja.json, so a new template is held to this too.
import { describe, expect, it } from 'vitest';
import mail from '../../messages/mail.ja.json';
import { loadConfig, mailLinksOf } from '../../src/server/config';
import { renderMail, type MailTemplate } from '../../src/server/mail/mailer';

const TEMPLATES = Object.keys(mail.templates) as MailTemplate[];

/** What renderMail fills itself: site, operator and the links. */
const OWN = ['site', 'operator', 'supportUrl', 'supportPhone', 'supportHours', 'loginUrl'];

/** A value for every placeholder a template names that the caller supplies (not the links). */
function sampleValues(template: MailTemplate): Record<string, string> {
  const { subject, body } = mail.templates[template];
  const names = [...`${subject}\n${body}`.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).filter((name) => !OWN.includes(name));
  return Object.fromEntries(names.map((name) => [name, `〈${name}〉`]));
}

describe('mail footer: how to reach the secretariat', () => {
  const configured = loadConfig({
    SUPPORT_URL: 'https://www.nichiiki.example.jp/contact/',
    SUPPORT_PHONE: '03-1234-5678',
    SUPPORT_HOURS: '平日 10:00〜16:00（年末年始を除く）',
    SITE_TOP_URL: 'https://www.nichiiki.example.jp/member/',
  });
  const links = mailLinksOf(configured);

  it('the configuration reads SUPPORT_URL, SUPPORT_PHONE and SUPPORT_HOURS', () => {
    expect(configured).toMatchObject({ supportUrl: 'https://www.nichiiki.example.jp/contact/', supportPhone: '03-1234-5678', supportHours: '平日 10:00〜16:00（年末年始を除く）' });
    expect(links.loginUrl).toBe('https://www.nichiiki.example.jp/member/?path=/user/login');
  });

  it('unset, they are stand-ins: the contact form in the parent site, an example number, weekday hours', () => {
    const defaults = loadConfig({});
    expect(defaults.supportUrl).toBe('http://localhost:8080/?path=/user/contact');
    expect(defaults.supportPhone).toBe('0120-000-000');
    expect(defaults.supportHours).toBe('平日 9:00〜17:00');
  });

  it('there are templates to check', () => {
    expect(TEMPLATES.length).toBeGreaterThan(10);
  });

  it.each(TEMPLATES)('%s ends with the configured contact, in text and HTML', (template) => {
    const values = sampleValues(template);
    const { subject, text, html } = renderMail(template, values, links);
    const tail = text.slice(text.lastIndexOf('――――――――――'));
    expect(tail).toContain(mail.operator);
    expect(tail).toContain(`お問い合わせフォーム：${links.supportUrl}`);
    expect(tail).toContain(`お電話：${links.supportPhone}（受付時間：${links.supportHours}）`);
    for (const shown of [links.supportUrl, links.supportPhone, links.supportHours]) expect(html).toContain(shown);
    // Nothing is left unfilled: the links and the caller's values all arrive.
    expect(`${subject}\n${text}`).not.toMatch(/\{\w+\}/);
  });

  it.each(TEMPLATES)('%s links only into the parent site (default configuration)', (template) => {
    const defaults = loadConfig({});
    const values = sampleValues(template);
    // The old flow's link is made by src/server/old-flow.ts (tests/api/old-flow.test.ts).
    if ('url' in values) values.url = `${defaults.siteTopUrl}?path=/user/old/register?key=k`;
    const { text } = renderMail(template, values, mailLinksOf(defaults));
    for (const url of text.match(/https?:\/\/\S+/g) ?? []) expect(url.startsWith(`${defaults.siteTopUrl}?path=/user/`), url).toBe(true);
  });

  it('notices, approvals and login codes carry a link to log in', () => {
    for (const template of ['loginCode', 'welcome', 'applicationApproved', 'passwordChanged', 'registerAttempted'] as MailTemplate[]) {
      expect(renderMail(template, sampleValues(template), links).text).toContain(links.loginUrl);
    }
  });
});
