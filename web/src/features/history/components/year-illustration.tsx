import type { HistoryYear } from '../data/editions';
import styles from './history.module.css';

/** The whole winding route; each year draws the part it had reached (a stylised growth picture). */
const FULL_ROUTE = 'M20 150 C70 150 80 115 130 118 S190 140 215 105 S250 60 300 55';

const ROUTE_SO_FAR: Record<HistoryYear, string> = {
  2021: 'M20 150 C70 150 80 115 130 118',
  2022: 'M20 150 C70 150 80 115 130 118 S190 140 215 105',
  2023: FULL_ROUTE,
  2024: FULL_ROUTE,
};

/** Points on the route where the year's flowers stand; `bonus` is 2024's golden bonus flower. */
const FLOWERS: Record<HistoryYear, { x: number; y: number; bonus?: boolean }[]> = {
  2021: [{ x: 130, y: 118 }],
  2022: [{ x: 130, y: 118 }, { x: 215, y: 105 }],
  2023: [{ x: 130, y: 118 }, { x: 215, y: 105 }, { x: 300, y: 55 }],
  2024: [{ x: 75, y: 133 }, { x: 130, y: 118 }, { x: 215, y: 105 }, { x: 248, y: 69 }, { x: 300, y: 55, bonus: true }],
};

const PETALS = [0, 60, 120, 180, 240, 300];

function Flower({ x, y, bonus }: { x: number; y: number; bonus?: boolean }) {
  return (
    <g transform={`translate(${x} ${y})`}>
      <line x1="0" y1="4" x2="0" y2="22" stroke="#2f7d3a" strokeWidth="2.5" strokeLinecap="round" />
      <g transform="translate(0 -8)">
        {PETALS.map((angle) => (
          <ellipse key={angle} rx="4.5" ry="8.5" transform={`rotate(${angle}) translate(0 -6.5)`} fill={bonus ? '#c99a06' : '#3b5bdb'} />
        ))}
        <circle r="4" fill="#fff" />
        <circle r="2" fill="#f5c518" />
      </g>
    </g>
  );
}

/**
 * A drawing for one year of the history page: spring hills, the virtual route as far as that
 * year's story goes, and one blue flower more each year (2024 adds the golden bonus flower).
 * `label` describes it for screen readers.
 */
export function YearIllustration({ year, label }: { year: HistoryYear; label: string }) {
  const gradient = `history-sky-${year}`;
  return (
    <svg className={styles.illustration} viewBox="0 0 320 180" role="img" aria-label={label} focusable="false" data-testid={`history-illustration-${year}`}>
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor="#d7e9fb" />
          <stop offset="1" stopColor="#f4f9ff" />
        </linearGradient>
      </defs>
      <rect width="320" height="180" fill={`url(#${gradient})`} />
      <circle cx="270" cy="32" r="16" fill="#ffe08a" />
      <path d="M0 180 L0 140 Q80 110 160 138 T320 120 L320 180 Z" fill="#cfe8c8" />
      <path d="M0 180 L0 160 Q100 140 200 162 T320 150 L320 180 Z" fill="#b3dba8" />
      <path d={FULL_ROUTE} fill="none" stroke="#7a8ca3" strokeWidth="3" strokeDasharray="2 7" strokeLinecap="round" opacity="0.6" />
      <path d={ROUTE_SO_FAR[year]} fill="none" stroke="#006edd" strokeWidth="4" strokeDasharray="10 6" strokeLinecap="round" />
      <circle cx="20" cy="150" r="5" fill="#003b78" />
      {FLOWERS[year].map((flower) => (
        <Flower key={`${flower.x}-${flower.y}`} {...flower} />
      ))}
    </svg>
  );
}
