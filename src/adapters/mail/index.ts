export { LogMailer, UndeliverableMailer } from './log-mailer';
export { SmtpMailer } from './smtp-mailer';
