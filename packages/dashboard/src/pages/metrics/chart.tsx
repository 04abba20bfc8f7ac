import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line of a chart: its name and its values, one per time of the chart. */
export interface Line {
  label: string;
  values: number[];
  /** A custom property of the stylesheet that gives the line's colour, so it follows the theme. */
  colour: string;
}

const cssValue = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/**
 * A time-series chart drawn by uPlot on a canvas. Canvas is invisible to screen readers, so every chart has a
 * caption and the same numbers as a table (`MetricTable`) beside it.
 */
export function Chart(props: {
  title: string;
  times: number[];
  lines: Line[];
  unit: string;
  /** The time range shown, in Unix seconds, whatever the points cover. */
  range: [number, number];
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const text = cssValue('--muted');
    const grid = cssValue('--border');
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 220,
        series: [
          {},
          ...props.lines.map((line) => ({ label: line.label, stroke: cssValue(line.colour), width: 2 })),
        ],
        axes: [axis, { ...axis, label: props.unit, labelGap: 4 }],
        legend: { show: true },
        scales: { x: { time: true, range: () => props.range } },
      },
      [props.times, ...props.lines.map((line) => line.values)],
      element,
    );
    const resize = () => plot.setSize({ width: Math.max(280, element.clientWidth), height: 220 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [props.times, props.lines, props.unit, props.range]);
  return (
    <figure class="panel">
      <figcaption>
        <h2>{props.title}</h2>
      </figcaption>
      <div
        ref={box}
        class="chart"
        role="img"
        aria-label={`${props.title} chart; the table below has its numbers`}
      />
    </figure>
  );
}
