import type { Transporter } from 'nodemailer';
import type { MailAttachment } from './schema.js';

/** One message as it goes to the SMTP server. */
export interface OutgoingMail {
  messageId: string;
  from: string;
  replyTo: string | null;
  to: string;
  subject: string;
  text: string;
  attachment: MailAttachment | null;
}

export interface SmtpSender {
  /** Resolves with the server's reply once it accepted the message; rejects with nodemailer's error. */
  send(mail: OutgoingMail): Promise<string>;
  close(): void;
}

/**
 * The SMTP client of `FACTEUR_SMTP_URL` (`smtp://user:pass@host:587`, STARTTLS when offered, or
 * `smtps://` for TLS from the start). Loaded at the first e-mail: a service that sends none never
 * holds the client.
 */
export function createSmtpSender(smtpUrl: string, options: { timeoutMs?: number } = {}): SmtpSender {
  let transport: Promise<Transporter> | null = null;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const open = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
      } as Parameters<typeof nodemailer.createTransport>[0]),
    ));
  return {
    async send(mail) {
      const info = (await (
        await open()
      ).sendMail({
        messageId: mail.messageId,
        from: mail.from,
        ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        attachments: mail.attachment
          ? [
              {
                filename: mail.attachment.fileName,
                contentType: mail.attachment.contentType,
                content: Buffer.from(mail.attachment.contentBase64, 'base64'),
              },
            ]
          : [],
      })) as { response?: string };
      return String(info.response ?? '250 accepted');
    },
    close() {
      void transport?.then((opened) => opened.close());
    },
  };
}
