import { type NotificationKind, preferencesWith } from '@dataplatform/contract';
import type { FastifyBaseLogger } from 'fastify';
import { ulid } from '../ids.js';
import type { Mailer } from '../mail/mailer.js';
import type { Storage } from '../storage/types.js';
import { type Clock, systemClock } from '../webhooks/clock.js';

/** What the part that noticed something tells its user. */
export interface Notice {
  title: string;
  body: string;
  /** A path that shows the cause, or null. */
  link?: string | null;
  /** Extra facts kept with the notification (never a secret). */
  data?: Record<string, unknown>;
}

/**
 * The one way the server tells a user something (`raise`): kept for the in-app list and stream, e-mailed, both or
 * neither, as the user's preference for the kind says. A notice never fails what caused it: a failed write or
 * mail is logged. Mail goes out after `raise` returns (`drain()` waits for it).
 */
export class Notifier {
  private readonly listeners = new Set<(userId: string) => void>();
  private readonly sending = new Set<Promise<void>>();

  constructor(
    private readonly storage: Storage,
    private readonly mailer: Mailer | null,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Tells the user about `kind` through the channels they chose. */
  async raise(userId: string, kind: NotificationKind, notice: Notice): Promise<void> {
    try {
      const channels = preferencesWith(await this.storage.notifications.preferences(userId))[kind];
      if (channels.inApp) {
        await this.storage.notifications.create({
          id: `ntf_${ulid()}`,
          userId,
          kind,
          title: notice.title,
          body: notice.body,
          link: notice.link ?? null,
          data: notice.data ?? {},
          createdAt: new Date(this.clock.now()).toISOString(),
        });
        for (const listener of this.listeners) listener(userId);
      }
      if (channels.email && this.mailer) this.mail(userId, notice);
    } catch (error) {
      this.log.error({ err: error, kind }, 'notification not raised');
    }
  }

  /** The time notifications are stamped with, in milliseconds. */
  now(): number {
    return this.clock.now();
  }

  /** Calls `listener` with the user of every notification this instance keeps; returns the unsubscribe. */
  onRaised(listener: (userId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits for the mail in flight. */
  async drain(): Promise<void> {
    await Promise.all(this.sending);
  }

  private mail(userId: string, notice: Notice): void {
    const mailer = this.mailer!;
    const sent = (async () => {
      const user = await this.storage.accounts.findUser(userId);
      if (!user) return;
      const link = notice.link ? `\n\n${notice.link}` : '';
      await mailer.send({ to: user.email, subject: notice.title, text: `${notice.body}${link}\n` });
    })()
      .catch((error: unknown) => this.log.error({ err: error }, 'notification e-mail not sent'))
      .finally(() => this.sending.delete(sent));
    this.sending.add(sent);
  }
}
