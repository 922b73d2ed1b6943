import type { DayFigure } from "~/domain/backoffice/dashboard.server";
import { useT } from "~/lib/i18n";
import { formatNaira } from "~/lib/money";

/** "21 Nov" for the shop date "2026-11-21". */
function formatShortDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale === "es" ? "es-NG" : "en-NG", { day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(`${date}T00:00:00.000Z`));
}

const WIDTH = 720;
const HEIGHT = 220;
const TOP = 24;
const BOTTOM = 28;
const LEFT = 8;

/** Daily revenue as bars, drawn on the server: no chart library, readable without JavaScript. */
export function RevenueChart({ days }: { days: DayFigure[] }) {
  const { t, locale } = useT();
  const max = Math.max(...days.map((d) => d.revenue), 0);
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const step = (WIDTH - LEFT * 2) / Math.max(days.length, 1);
  const bar = Math.max(step - 4, 2);
  const total = days.reduce((sum, d) => sum + d.revenue, 0);
  return (
    <figure>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-labelledby="revenue-chart-title revenue-chart-desc"
        className="h-auto max-h-64 w-full"
        data-chart="daily-revenue"
      >
        <title id="revenue-chart-title">{t("admin.dashboard.chart.title")}</title>
        <desc id="revenue-chart-desc">
          {t("admin.dashboard.chart.description", { days: days.length, total: formatNaira(total), max: formatNaira(max) })}
        </desc>
        <line x1={LEFT} x2={WIDTH - LEFT} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} stroke="#d6d3d1" />
        <line x1={LEFT} x2={WIDTH - LEFT} y1={TOP} y2={TOP} stroke="#e7e5e4" strokeDasharray="4 4" />
        <text x={LEFT} y={TOP - 8} fontSize="12" fill="#57534e">
          {formatNaira(max)}
        </text>
        {days.map((day, i) => {
          const h = max > 0 ? Math.max((day.revenue / max) * plotHeight, day.revenue > 0 ? 2 : 0) : 0;
          const x = LEFT + i * step + (step - bar) / 2;
          return (
            <g key={day.date}>
              <rect x={x} y={HEIGHT - BOTTOM - h} width={bar} height={h} rx="2" fill="#96713f" data-date={day.date} data-revenue={day.revenue}>
                <title>
                  {t("admin.dashboard.chart.bar", { date: formatShortDate(day.date, locale), revenue: formatNaira(day.revenue), count: day.orders })}
                </title>
              </rect>
              {(days.length - 1 - i) % 7 === 0 && (
                <text x={x + bar / 2} y={HEIGHT - 8} fontSize="12" fill="#57534e" textAnchor="middle">
                  {formatShortDate(day.date, locale)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <details className="mt-2 text-sm">
        <summary className="inline-flex min-h-11 cursor-pointer items-center text-stone-600">{t("admin.dashboard.chart.asTable")}</summary>
        <div className="max-h-72 overflow-y-auto">
          <table className="w-full text-left">
            <thead>
              <tr className="text-stone-500">
                <th className="py-1 font-medium">{t("admin.dashboard.chart.day")}</th>
                <th className="py-1 font-medium">{t("admin.dashboard.orders")}</th>
                <th className="py-1 text-right font-medium">{t("admin.dashboard.revenue")}</th>
              </tr>
            </thead>
            <tbody>
              {days.map((day) => (
                <tr key={day.date} className="border-t border-stone-100">
                  <td className="py-1">{formatShortDate(day.date, locale)}</td>
                  <td className="py-1">{day.orders}</td>
                  <td className="py-1 text-right tabular-nums">{formatNaira(day.revenue)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
