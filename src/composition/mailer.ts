import { LogMailer, SmtpMailer, UndeliverableMailer } from '../adapters/mail';
import type { LoggerPort } from '../ports/logger.port';
import type { MailerPort } from '../ports/mailer.port';
import type { AppConfig } from './app-config';

/**
 * SMTP to `SMTP_URL`; without it, the log outside production (development needs no mail server), and nothing in
 * production.
 */
export function createMailer(config: Pick<AppConfig, 'mail' | 'nodeEnv'>, logger: LoggerPort): MailerPort {
  if (config.mail.smtpUrl) return new SmtpMailer(config.mail.smtpUrl, config.mail.from);
  return config.nodeEnv === 'production' ? new UndeliverableMailer(logger) : new LogMailer(logger);
}
