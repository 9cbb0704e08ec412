// The embedded mail catcher (maildev 2): SMTP on loopback, and a web view of every mail sent.
import MailDev from 'maildev';

export async function startMailCatcher(smtpPort: number, webPort: number): Promise<{ close(): Promise<void> }> {
  const maildev = new MailDev({ smtp: smtpPort, web: webPort, ip: '127.0.0.1', webIp: '127.0.0.1', silent: true, disableWeb: false });
  await new Promise<void>((resolve, reject) => maildev.listen((err?: Error) => (err ? reject(err) : resolve())));
  return { close: () => new Promise<void>((resolve) => maildev.close(() => resolve())) };
}
