/**
 * The interactive route map. Its code (a chunk of its own) and its countries (atlas.json, a
 * static file the build copies, fetched as data rather than bundled as JavaScript) are loaded
 * when the map first renders or when preloadRouteMap() asks for them earlier: wrap <RouteMap> in
 * <Suspense> (and an error boundary: either may fail to arrive).
 */
import { createElement, lazy } from 'react';
import atlasUrl from './atlas.json?url';
import type { Atlas } from './geo';
import type { RouteMapProps } from './route-map';

export type { RouteMapLabels, RouteMapMission } from './types';
export type { RouteMapProps } from './route-map';

let atlas: Promise<Atlas> | undefined;

/** atlas.json, fetched once; a failed fetch is tried again the next time it is asked for. */
function loadAtlas(): Promise<Atlas> {
  atlas ??= fetch(atlasUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`route map atlas: HTTP ${response.status}`);
      return response.json() as Promise<Atlas>;
    })
    .catch((error: unknown) => {
      atlas = undefined;
      throw error;
    });
  return atlas;
}

const load = () => Promise.all([import('./route-map'), loadAtlas()]);

export const RouteMap = lazy(() =>
  load().then(([module, countries]) => ({
    default: function RouteMapWithAtlas(props: RouteMapProps) {
      return createElement(module.RouteMap, { ...props, atlas: countries });
    },
  })),
);

/** Starts fetching the map's chunk and atlas (e.g. while the page waits for its data); safe to call often. */
export function preloadRouteMap(): void {
  load().catch(() => {
    // Rendering <RouteMap> tries again and reports the failure where it is shown.
  });
}

/** Width / height of the map at zoom 1 (2025 route), for a placeholder of the right size while it loads. */
export const ROUTE_MAP_ASPECT_RATIO = '1000 / 618';
