import { geoMercator, geoPath } from 'd3-geo';
import type { LineString } from 'geojson';
import { useMemo } from 'react';
import styles from './activity-files.module.css';

/** Size of the drawing, SVG user units (the element scales to its box). */
const WIDTH = 160;
const HEIGHT = 120;
const MARGIN = 8;

/**
 * A small map of an activity's track: the line alone on a plain ground, no
 * tiles (nothing is fetched), Mercator fitted to the track, a dot at the start. `track`:
 * [longitude, latitude] degrees. Nothing when the track has fewer than two points (indoors).
 * `label` names the map for screen readers.
 */
export function TrackMap({ track, label }: { track: readonly [number, number][]; label: string }) {
  const drawn = useMemo(() => {
    if (track.length < 2) return null;
    const line: LineString = { type: 'LineString', coordinates: track.map(([lon, lat]) => [lon, lat]) };
    const projection = geoMercator().fitExtent([[MARGIN, MARGIN], [WIDTH - MARGIN, HEIGHT - MARGIN]], line);
    const start = projection(track[0]!);
    return { path: geoPath(projection)(line) ?? '', start };
  }, [track]);
  if (!drawn) return null;
  return (
    <svg className={styles.map} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} data-testid="activity-file-map">
      <rect width={WIDTH} height={HEIGHT} className={styles.mapGround} />
      <path d={drawn.path} className={styles.mapTrack} />
      {drawn.start && <circle cx={drawn.start[0]} cy={drawn.start[1]} r={3.5} className={styles.mapStart} />}
    </svg>
  );
}
