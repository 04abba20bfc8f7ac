import type { MetricSeries } from '@dataplatform/sdk';
import { useMemo, useState } from 'preact/hooks';
import { useSession } from '../../context.js';
import { bytes, count } from '../../ui/format.js';
import { PageHeader } from '../../ui/page.js';
import { Status } from '../../ui/status.js';
import { DataTable } from '../../ui/table.js';
import { useLoad } from '../../ui/use-load.js';
import { Chart, type Line } from './chart.js';

type Interval = MetricSeries['interval'];
type Point = MetricSeries['series'][number];

/** The ranges offered, each with the bucket that gives it a readable number of points. */
const RANGES: Record<string, { label: string; hours: number; interval: Interval }> = {
  hour: { label: 'Last hour', hours: 1, interval: 'minute' },
  day: { label: 'Last 24 hours', hours: 24, interval: 'hour' },
  week: { label: 'Last 7 days', hours: 24 * 7, interval: 'hour' },
  month: { label: 'Last 30 days', hours: 24 * 30, interval: 'day' },
};

const line = (label: string, colour: string, series: Point[], pick: (point: Point) => number): Line => ({
  label,
  colour,
  values: series.map(pick),
});

/** Requests, errors, latency and traffic of the chosen cluster as charts, with their numbers as a table. */
export default function Metrics() {
  const { client, clusterId } = useSession();
  const [range, setRange] = useState('day');
  const chosen = RANGES[range]!;
  const metrics = useLoad(async () => {
    const to = new Date();
    const from = new Date(to.getTime() - chosen.hours * 3_600_000);
    const answer = await client.metrics.get({
      clusterId,
      interval: chosen.interval,
      from: from.toISOString(),
      to: to.toISOString(),
    });
    return { ...answer, range: [from.getTime() / 1000, to.getTime() / 1000] as [number, number] };
  }, [client, clusterId, range]);
  const series = metrics.data?.series ?? [];
  const charts = useMemo(() => {
    const times = series.map((point) => Date.parse(point.t) / 1000);
    return {
      times,
      requests: [
        line('Requests', '--accent', series, (p) => p.requests),
        line('Errors', '--danger', series, (p) => p.errors),
      ],
      latency: [
        line('p50', '--ok', series, (p) => p.p50Ms),
        line('p95', '--accent', series, (p) => p.p95Ms),
        line('p99', '--danger', series, (p) => p.p99Ms),
      ],
      traffic: [
        line('Bytes in', '--accent', series, (p) => p.bytesIn),
        line('Bytes out', '--ok', series, (p) => p.bytesOut),
      ],
    };
  }, [series]);

  return (
    <>
      <PageHeader title="Metrics" intro="Requests to this cluster, their errors, latency and traffic.">
        <label>
          <span class="visually-hidden">Time range</span>
          <select value={range} onChange={(event) => setRange(event.currentTarget.value)}>
            {Object.entries(RANGES).map(([value, option]) => (
              <option key={value} value={value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
      </PageHeader>
      <Status error={metrics.error} />
      {metrics.data && series.length === 0 ? <p class="panel">No requests in this range yet.</p> : null}
      {series.length > 0 ? (
        <>
          <Chart
            range={metrics.data!.range}
            title="Requests and errors"
            unit="requests"
            times={charts.times}
            lines={charts.requests}
          />
          <Chart
            range={metrics.data!.range}
            title="Latency"
            unit="ms"
            times={charts.times}
            lines={charts.latency}
          />
          <Chart
            range={metrics.data!.range}
            title="Traffic"
            unit="bytes"
            times={charts.times}
            lines={charts.traffic}
          />
          <details class="panel">
            <summary>The numbers as a table</summary>
            <DataTable
              caption={`Metrics per ${chosen.interval}`}
              columns={[
                { label: 'From', cell: (p) => new Date(p.t).toLocaleString() },
                { label: 'Requests', cell: (p) => count(p.requests) },
                { label: 'Errors', cell: (p) => count(p.errors) },
                { label: 'p50', cell: (p) => `${p.p50Ms} ms` },
                { label: 'p95', cell: (p) => `${p.p95Ms} ms` },
                { label: 'p99', cell: (p) => `${p.p99Ms} ms` },
                { label: 'In', cell: (p) => bytes(p.bytesIn) },
                { label: 'Out', cell: (p) => bytes(p.bytesOut) },
              ]}
              rows={series}
              rowKey={(p) => p.t}
            />
          </details>
        </>
      ) : null}
    </>
  );
}
