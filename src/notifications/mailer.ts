import type { Transporter } from 'nodemailer';
import type { Config } from '../config.js';

export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/** The SMTP transport of FACTEUR_SMTP_URL, or null: e-mails are then logged and never sent. */
export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer | null {
  if (!config.smtpUrl) return null;
  const smtpUrl = config.smtpUrl;
  // Loaded at the first e-mail: a service that sends none never holds the SMTP client (~14 MB).
  let transport: Promise<Transporter> | null = null;
  return {
    async send(message) {
      transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
      await (await transport).sendMail({ from: config.mailFrom, ...message });
    },
  };
}
