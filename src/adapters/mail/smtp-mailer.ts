import { createTransport } from 'nodemailer';
import type { MailerPort, MailMessage } from '../../ports/mailer.port';

/** Mail over SMTP with nodemailer, to the server `smtpUrl` names (`smtp://user:pass@host:587`, `smtps://...`). */
export class SmtpMailer implements MailerPort {
  private readonly transport: ReturnType<typeof createTransport>;

  constructor(smtpUrl: string, from: string) {
    this.transport = createTransport(smtpUrl, { from });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ to: message.to, subject: message.subject, text: message.text });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
