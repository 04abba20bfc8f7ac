import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type { ServerConfig } from '../config.js';
import { prepareDataDir } from '../data-dir.js';
import { lazy } from '../lazy.js';

/** nodemailer, loaded by the first message: most servers send mail rarely, some never. */
const nodemailer = lazy(async () => (await import('nodemailer')).default);

/** A plain-text e-mail from the server to one person. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends the server's e-mail. */
export interface Mailer {
  /** Where mail goes, for the start-up log: `smtp://host:port` (no credentials) or the outbox file. */
  readonly destination: string;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * The mailer the configuration asks for: SMTP (nodemailer) when SMTP_URL is set; otherwise every message is
 * appended as one JSON line to `<data dir>/outbox.jsonl` (mode 0600: it holds reset links), so a development
 * server needs no mail server and the messages can still be read.
 */
export function createMailer(config: Pick<ServerConfig, 'smtpUrl' | 'mailFrom' | 'dataDir'>): Mailer {
  if (config.smtpUrl) return smtpMailer(config.smtpUrl, config.mailFrom);
  return outboxMailer(config.dataDir, config.mailFrom);
}

/** A transport made with the first message; `close()` closes it if it was made. */
function lazyTransport(make: (mailer: Awaited<ReturnType<typeof nodemailer>>) => Transporter) {
  let transport: Transporter | undefined;
  return {
    async get(): Promise<Transporter> {
      const mailer = await nodemailer();
      transport ??= make(mailer);
      return transport;
    },
    close: () => transport?.close(),
  };
}

function smtpMailer(url: string, from: string): Mailer {
  const transport = lazyTransport((mailer) => mailer.createTransport(url));
  const address = new URL(url);
  return {
    destination: `${address.protocol}//${address.host}`,
    async send(message) {
      await (await transport.get()).sendMail({ from, ...message });
    },
    close: () => transport.close(),
  };
}

function outboxMailer(dataDir: string, from: string): Mailer {
  const file = dataDir === ':memory:' ? null : join(dataDir, 'outbox.jsonl');
  const transport = lazyTransport((mailer) => mailer.createTransport({ jsonTransport: true }));
  return {
    destination: file ?? 'nowhere (in-memory data directory)',
    async send(message) {
      if (!file) return;
      const info = await (await transport.get()).sendMail({ from, ...message });
      const { messageId, date } = JSON.parse(info.message as unknown as string) as Record<string, unknown>;
      const line = { messageId, date, from, ...message };
      prepareDataDir(dataDir);
      await appendFile(file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    },
    close: () => transport.close(),
  };
}
