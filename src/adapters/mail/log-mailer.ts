import type { LoggerPort } from '../../ports/logger.port';
import type { MailerPort, MailMessage } from '../../ports/mailer.port';

/**
 * Without `SMTP_URL`, outside production: each mail is written to the log, whole, so that
 * development needs no mail server. (Its links are secrets: never use it where logs are kept.)
 */
export class LogMailer implements MailerPort {
  constructor(private readonly logger: LoggerPort) {}

  async send(message: MailMessage): Promise<void> {
    this.logger.info(
      { mail: { to: message.to, subject: message.subject } },
      `mail not sent (no SMTP_URL), as it would read:\n${message.text}`,
    );
  }
}

/** Without `SMTP_URL` in production: mail cannot be sent, and says so (without its content) each time. */
export class UndeliverableMailer implements MailerPort {
  constructor(private readonly logger: LoggerPort) {}

  async send(message: MailMessage): Promise<void> {
    this.logger.warn({ subject: message.subject }, 'a mail could not be sent: set SMTP_URL');
  }
}
