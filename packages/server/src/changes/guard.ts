import type { Principal } from '../auth/authenticate.js';
import { ApiError } from '../http/errors.js';

/** An open stream (or WebSocket subscription) as the guard sees it. */
export interface Guarded {
  /** Whose stream it is: counted against that owner's limit. */
  owner: string;
  /** Whether the credential that opened it still holds: null, or the error that now refuses it. */
  check(): Promise<ApiError | null>;
  /** Ends the stream, telling the client why. */
  end(error: ApiError): void;
}

/** Who a stream counts against: the key, or the signed-in user (whatever session or cluster they use). */
export function ownerOf(principal: Principal): string {
  return principal.kind === 'key' ? `key:${principal.key.keyId}` : `user:${principal.userId}`;
}

/**
 * The open streams of this instance: at most `max` per owner (429 `too_many_streams` past it), and each ended when
 * its credential stops holding. Every change that could alter an authentication answer (a key paused, rotated or
 * deleted, its scopes or its owner's role changed, the cluster paused; here or on another instance, see
 * `Storage.onAuthChange`) checks every open stream again.
 */
export class StreamGuard {
  private readonly counts = new Map<string, number>();
  private readonly open = new Set<Guarded>();
  private checking = false;
  private again = false;
  private readonly stop: () => void;

  constructor(
    private readonly max: number,
    onAuthChange: (listener: () => void) => () => void,
  ) {
    this.stop = onAuthChange(() => this.checkAll());
  }

  /**
   * Counts the stream against its owner, or throws 429 `too_many_streams` when the owner has `max` open already.
   * Call before the stream answers anything; `release` when it ends.
   */
  admit(owner: string): void {
    const count = this.counts.get(owner) ?? 0;
    if (count >= this.max) {
      throw new ApiError(
        'too_many_streams',
        `At most ${this.max} change streams and subscriptions may be open at once; close one first`,
        { limit: this.max },
      );
    }
    this.counts.set(owner, count + 1);
  }

  /** Gives back what `admit` counted. */
  release(owner: string): void {
    const count = (this.counts.get(owner) ?? 1) - 1;
    if (count <= 0) this.counts.delete(owner);
    else this.counts.set(owner, count);
  }

  /** Watches an admitted stream until `forget` (it ended). */
  watch(stream: Guarded): void {
    this.open.add(stream);
  }

  forget(stream: Guarded): void {
    this.open.delete(stream);
  }

  close(): void {
    this.stop();
  }

  /** Checks every open stream; changes heard meanwhile check them all once more afterwards. */
  private checkAll(): void {
    if (this.checking) {
      this.again = true;
      return;
    }
    this.checking = true;
    void Promise.all(
      [...this.open].map(async (stream) => {
        const refused = await stream.check().catch(() => null);
        if (refused && this.open.has(stream)) stream.end(refused);
      }),
    ).finally(() => {
      this.checking = false;
      if (this.again) {
        this.again = false;
        this.checkAll();
      }
    });
  }
}
