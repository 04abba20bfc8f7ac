import { describe, expect, it } from 'vitest';
import { defaultChannels, preferencesWith } from './notifications.js';

describe('notification preferences', () => {
  it('are the defaults when nothing was chosen', () => {
    const all = preferencesWith([]);
    expect(Object.keys(all)).toHaveLength(9);
    expect(all.account_locked).toEqual({ inApp: true, email: true });
    expect(all.webhook_failing).toEqual(defaultChannels('webhook_failing'));
    expect(all.webhook_failing).toEqual({ inApp: true, email: false });
  });

  it('take the stored choice over the default and drop unknown kinds', () => {
    const all = preferencesWith([
      { kind: 'backup_failed', inApp: false, email: true },
      { kind: 'retired_kind', inApp: false, email: false },
    ]);
    expect(all.backup_failed).toEqual({ inApp: false, email: true });
    expect(all).not.toHaveProperty('retired_kind');
  });
});
