import { describe, expect, it } from 'vitest';
import { parseArgs, runCli } from '../../../test/harness.js';
import { useMockApi } from '../../../test/mock-api.js';
import { newMetricsShowCommand } from './show.js';

describe('dp metrics: arguments', () => {
  it('parses the interval, range and key', async () => {
    expect(await parseArgs(newMetricsShowCommand, ['--interval', 'hour', '--key', 'k1'])).toMatchObject({
      ok: true,
      options: { interval: 'hour', key: 'k1' },
    });
    expect(await parseArgs(newMetricsShowCommand, [])).toMatchObject({
      ok: true,
      options: { interval: 'minute' },
    });
  });

  it('refuses an unknown interval with exit status 2', async () => {
    expect(await parseArgs(newMetricsShowCommand, ['--interval', 'week'])).toMatchObject({
      ok: false,
      code: 2,
    });
  });
});

describe('dp metrics: run', () => {
  const api = useMockApi();

  const signedIn = async () => (await api.signUp()).env;

  it("shows the first cluster's series and totals as JSON", async () => {
    const env = await signedIn();
    const shown = await runCli(['metrics', '--interval', 'hour', '--json'], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({ interval: 'hour', series: [] });
    const summary = await runCli(['metrics', 'summary', '--json'], { env });
    expect(summary.code, summary.stderr).toBe(0);
    expect(JSON.parse(summary.stdout)).toMatchObject({ keys: 0, webhookSuccessRate: null });
  });

  it('exits 4 for a cluster that is not yours', async () => {
    const env = await signedIn();
    const missing = await runCli(['metrics', 'summary', '--cluster', 'cls_nobody'], { env });
    expect(missing.code).toBe(4);
  });
});
