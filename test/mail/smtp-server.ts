import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it: the envelope and the raw RFC 5322 text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  user: string | null;
}

/** A reply the server gives to the next RCPT TO instead of accepting it (`451`, `550`...). */
export interface ScriptedRefusal {
  code: number;
  message: string;
}

export interface LocalSmtpServer {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Refusals for the next recipients, in order; an empty list accepts. */
  refusals: ScriptedRefusal[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1: AUTH PLAIN/LOGIN against the
 * user and password of the URL, no TLS, each accepted message kept whole.
 */
export async function startSmtpServer(options: { port?: number } = {}): Promise<LocalSmtpServer> {
  const received: ReceivedMail[] = [];
  const refusals: ScriptedRefusal[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: false,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'facteur' && auth.password === 's3cret') callback(null, { user: auth.username });
      else callback(Object.assign(new Error('Invalid credentials'), { responseCode: 535 }));
    },
    onRcptTo(_address, _session, callback) {
      const refusal = refusals.shift();
      if (refusal) callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: (session.user as string | undefined) ?? null,
        });
        callback();
      });
    },
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server.server, 'listening');
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://facteur:s3cret@127.0.0.1:${port}`,
    port,
    received,
    refusals,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A header of a raw message, unfolded. */
export function headerOf(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((entry) => entry.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? line.slice(name.length + 1).trim() : null;
}

/** The decoded bytes of the part named `fileName` (base64, as nodemailer writes attachments). */
export function attachmentOf(raw: string, fileName: string): Buffer | null {
  const parts = raw.split(/\r?\n--[^\r\n]+/);
  const part = parts.find(
    (entry) => entry.includes(`filename=${fileName}`) || entry.includes(`filename="${fileName}"`),
  );
  if (!part) return null;
  const body = part
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('');
  return Buffer.from(body.replace(/\s+/g, ''), 'base64');
}

/** The text part of a message, decoded from quoted-printable. */
export function textOf(raw: string): string {
  const part = raw.split(/\r?\n--[^\r\n]+/).find((entry) => /content-type: text\/plain/i.test(entry)) ?? raw;
  const [headers, ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/quoted-printable/i.test(headers!))
    return Buffer.from(
      body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  if (/base64/i.test(headers!)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}
