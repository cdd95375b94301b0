/**
 * A daily series as a line chart (uPlot), sized to its container and coloured from the theme,
 * with the same figures as a table for screen readers.
 */
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export function DayChart({ title, dates, values }: { title: string; dates: string[]; values: (number | null)[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const style = getComputedStyle(document.documentElement);
    const accent = style.getPropertyValue("--accent").trim();
    const text = style.getPropertyValue("--muted").trim();
    const grid = style.getPropertyValue("--border").trim();
    const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: 220,
        legend: { show: false },
        scales: { x: { time: true } },
        axes: [axis, { ...axis, size: 60 }],
        series: [{}, { label: title, stroke: accent, width: 2, fill: `${accent}22`, spanGaps: true }],
      },
      [dates.map((date) => Date.parse(`${date}T00:00:00Z`) / 1000), values],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [title, dates, values]);
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} aria-hidden="true" />
      <details>
        <summary>{`${title} as a table`}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{title}</th>
            </tr>
          </thead>
          <tbody>
            {dates.map((date, index) => (
              <tr key={date}>
                <td>{date}</td>
                <td>{values[index] ?? "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
