// The embedded mail catcher (maildev 2): SMTP on loopback, and a web view of every mail sent.
import MailDev from 'maildev';

export async function startMailCatcher(smtpPort: number, webPort: number): Promise<{ close(): Promise<void> }> {
  const maildev = new MailDev({ smtp: smtpPort, web: webPort, ip: '127.0.0.1', webIp: '127.0.0.1', silent: true, disableWeb: false });
  // A carrier address with dots in a row (taro..yamada.@docomo.ne.jp, docs/decisions/018) goes out
  // as RFC 5321 writes it, quoted ("taro..yamada."@docomo.ne.jp); smtp-server's strict parsing
  // refuses dots in a row even inside quotes, which relays such as Postfix accept.
  maildev.smtp.options.lenientAddressParsing = true;
  await new Promise<void>((resolve, reject) => maildev.listen((err?: Error) => (err ? reject(err) : resolve())));
  return { close: () => new Promise<void>((resolve) => maildev.close(() => resolve())) };
}
