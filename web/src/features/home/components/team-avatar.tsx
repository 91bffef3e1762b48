import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FlowerIcon } from '../../../components/ui/flower-icon';
import styles from './top-teams.module.css';

/** The team's picture (URL or data URL), or the default blue flower when it has none or it fails. */
export function TeamAvatar({ name, icon, size = 48 }: { name: string; icon: string | null; size?: number }) {
  const { t } = useTranslation('home');
  const [failed, setFailed] = useState(false);
  if (icon && !failed) {
    return (
      <img
        className={styles.avatar}
        src={icon}
        alt={t('topTeams.iconAlt', { name })}
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <span className={`${styles.avatar} ${styles.defaultAvatar}`} style={{ width: size, height: size }}>
      <FlowerIcon size={Math.round(size * 0.7)} />
    </span>
  );
}
