import styles from './flower-icon.module.css';

export interface FlowerIconProps {
  /** Edge length in px. */
  size?: number;
  /** Accessible name; without it the icon is decorative (aria-hidden). */
  title?: string;
  className?: string;
}

const PETALS = [0, 60, 120, 180, 240, 300];

/** The blue flower (Hepatica nobilis, "sinilill"): six blue petals around a light centre. */
export function FlowerIcon({ size = 16, title, className }: FlowerIconProps) {
  return (
    <svg
      className={className ? `${styles.flower} ${className}` : styles.flower}
      width={size}
      height={size}
      viewBox="-12 -12 24 24"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
      focusable="false"
    >
      <g className={styles.petals}>
        {PETALS.map((angle) => (
          <ellipse key={angle} rx="3.6" ry="6.8" transform={`rotate(${angle}) translate(0 -5)`} />
        ))}
      </g>
      <circle r="3" fill="#fff" />
      <circle r="1.6" fill="#f5c518" />
    </svg>
  );
}
