import { geoMercator, geoPath } from 'd3-geo';
import type { MultiLineString } from 'geojson';
import { useMemo } from 'react';
import styles from './activity-files.module.css';

/** Size of the drawing, SVG user units (the element scales to its box). */
const WIDTH = 160;
const HEIGHT = 120;
const MARGIN = 8;

/**
 * A small map of an activity's tracks (one per part of a file: the sports of a multi-sport file,
 * its days): the lines alone on a plain ground, no tiles (nothing is fetched), Mercator fitted to
 * all of them, a dot at the first one's start. `tracks`: each [longitude, latitude] degrees; a
 * track of fewer than two points (indoors) is left out, and with none left nothing is drawn.
 * `label` names the map for screen readers.
 */
export function TrackMap({ tracks, label }: { tracks: readonly (readonly [number, number][])[]; label: string }) {
  const drawn = useMemo(() => {
    const lines = tracks.filter((track) => track.length >= 2);
    if (lines.length === 0) return null;
    const shape: MultiLineString = { type: 'MultiLineString', coordinates: lines.map((track) => track.map(([lon, lat]) => [lon, lat])) };
    const projection = geoMercator().fitExtent([[MARGIN, MARGIN], [WIDTH - MARGIN, HEIGHT - MARGIN]], shape);
    const start = projection(lines[0]![0]!);
    return { path: geoPath(projection)(shape) ?? '', start };
  }, [tracks]);
  if (!drawn) return null;
  return (
    <svg className={styles.map} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} data-testid="activity-file-map">
      <rect width={WIDTH} height={HEIGHT} className={styles.mapGround} />
      <path d={drawn.path} className={styles.mapTrack} />
      {drawn.start && <circle cx={drawn.start[0]} cy={drawn.start[1]} r={3.5} className={styles.mapStart} />}
    </svg>
  );
}
