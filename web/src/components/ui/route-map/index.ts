/**
 * The interactive route map (an SVG drawn offline from bundled Natural Earth data). Its code and
 * geodata are a chunk of their own, loaded when the map first renders or when preloadRouteMap()
 * asks for it earlier: wrap <RouteMap> in <Suspense>.
 */
import { lazy } from 'react';

export type { RouteMapLabels, RouteMapMission } from './types';
export type { RouteMapProps } from './route-map';

const load = () => import('./route-map');

export const RouteMap = lazy(() => load().then((module) => ({ default: module.RouteMap })));

/** Starts fetching the map's chunk (e.g. while the page waits for its data); safe to call often. */
export function preloadRouteMap(): void {
  load().catch(() => {
    // Rendering <RouteMap> retries and reports the failure where it is shown.
  });
}

/** Width / height of the map at zoom 1 (2025 route), for a placeholder of the right size while it loads. */
export const ROUTE_MAP_ASPECT_RATIO = '1000 / 618';
