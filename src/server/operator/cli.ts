// npm run operator -- <group> <command> …: the operator's tool. It reads the same environment
// as the site (loadConfig) and so works on the same database and sends through the same SMTP.
import { loadConfig, smtpUrlOf, mailLinksOf, retentionOf } from '../config';
import { migrate, openDb } from '../db/connect';
import { createMailer } from '../mail/mailer';
import { consoleOutput } from './output';
import { runOperator } from './run';

process.exitCode = await runOperator(process.argv.slice(2), consoleOutput, async () => {
  const config = loadConfig();
  const db = openDb(config);
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // As the site: a real relay when SMTP_URL is set, else the catcher a running `npm start` embeds.
  return { db, mailer: createMailer(smtpUrlOf(config), config.mailFrom, config.smtpTimeoutSeconds * 1000, mailLinksOf(config)), publicUrl: config.publicUrl, retention: retentionOf(config), close: () => db.destroy() };
});
