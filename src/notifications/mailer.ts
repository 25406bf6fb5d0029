import nodemailer from 'nodemailer';
import type { Config } from '../config.js';

export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/** The SMTP transport of FACTEUR_SMTP_URL, or null: e-mails are then logged and never sent. */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer | null {
  if (!config.smtpUrl) return null;
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    async send(message) {
      await transport.sendMail({ from: config.mailFrom, ...message });
    },
  };
}
