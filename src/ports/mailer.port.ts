/** One plain-text e-mail to one address. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail (SMTP, or the log in development). Fails with an Error; callers decide whether a failure matters. */
export interface MailerPort {
  send(message: MailMessage): Promise<void>;
  close?(): Promise<void>;
}
