import { useState } from 'react';
import { FlowerIcon } from './flower-icon';
import styles from './team-icon.module.css';

export interface TeamIconProps {
  /** The team's picture: a URL or data URL; null (or '') for the default blue flower. */
  icon: string | null;
  /** Edge length in px. */
  size?: number;
  /**
   * The picture's text alternative. Default '' (decorative): beside the team's name the picture
   * adds nothing a screen reader needs.
   */
  alt?: string;
  testId?: string;
}

/**
 * A team's round picture (`<img src={icon}>`, loaded lazily), or the default blue flower when the
 * team has none or its picture fails to load.
 */
export function TeamIcon({ icon, size = 40, alt = '', testId }: TeamIconProps) {
  // Remembers which picture failed, so that a new picture of the same team is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  if (icon && failed !== icon) {
    return (
      <img
        className={styles.icon}
        src={icon}
        alt={alt}
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(icon)}
        data-testid={testId}
      />
    );
  }
  return (
    <span className={`${styles.icon} ${styles.fallback}`} style={{ width: size, height: size }} data-testid={testId}>
      <FlowerIcon size={Math.round(size * 0.7)} title={alt || undefined} />
    </span>
  );
}
