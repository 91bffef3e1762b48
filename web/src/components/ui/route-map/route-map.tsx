import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { rovingTarget } from '../../../lib/roving-focus';
import { type Atlas, buildMapGeometry } from './geo';
import { mapRegions } from './regions';
import { spreadMarkers, type Extent } from './spread-markers';
import type { RouteMapLabels, RouteMapMission } from './types';
import { baseView, centreOn, isInView, MAX_ZOOM, MIN_ZOOM, panView, type Point, toPercent, type ViewBox, zoomOf, zoomView } from './view-box';
import styles from './route-map.module.css';

export interface RouteMapProps {
  /** The route's missions in order; the route line links them in this order. */
  missions: readonly RouteMapMission[];
  labels: RouteMapLabels;
  /** The details panel's content for the chosen mission. */
  renderDetails: (missionId: number) => ReactNode;
  /** Whether markers show the teams' progress (badges, filled or dashed); default true. */
  showProgress?: boolean;
  /** Id of the visible heading that names the map. */
  headingId?: string;
}

/** RouteMapProps and the countries to draw (atlas.json, which index.ts fetches with this chunk). */
export interface RouteMapWithAtlasProps extends RouteMapProps {
  atlas: Atlas;
}

/** One zoom step. */
const ZOOM_STEP = 1.6;
/** Pointer movement, px, before a press on the map becomes a drag. */
const DRAG_THRESHOLD = 4;
/** Share of the view an arrow key pans. */
const KEY_PAN = 0.15;
/** Marker diameter, px: at least 24 (WCAG 2.5.8 target size), larger where there is room. */
function markerSize(viewportWidth: number): number {
  return viewportWidth < 480 ? 24 : 28;
}
/** Room between two markers' boxes, px: they never touch, also while one grows on hover. */
const MARKER_GAP = 4;
/**
 * How far the team-count badge overhangs a marker's box, px (route-map.module.css, .badge: 9 px
 * above and 11 px right of the padding box inside a 2 px border). It is part of the button, so a
 * neighbour must not sit under it.
 */
const BADGE_OVERHANG = { top: 7, right: 9 };

interface Placed {
  mission: RouteMapMission;
  anchor: Point;
  position: Point;
}

interface Drag {
  pointerId: number;
  startX: number;
  startY: number;
  startView: ViewBox;
  moved: boolean;
}

function ZoomInIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M12 5v14M5 12h14" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

function ZoomOutIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M5 12h14" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
    </svg>
  );
}

function ResetIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path d="M4 9V4h5M20 15v5h-5M4 4l6 6M20 20l-6-6M15 4h5v5M9 20H4v-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** A curve from a to b, bowed to the left of the direction of travel, so that a return leg does not hide the way out. */
function legPath(a: Point, b: Point): string {
  const bend = 0.15;
  const cx = (a.x + b.x) / 2 - (b.y - a.y) * bend;
  const cy = (a.y + b.y) / 2 + (b.x - a.x) * bend;
  return `M${a.x.toFixed(1)} ${a.y.toFixed(1)}Q${cx.toFixed(1)} ${cy.toFixed(1)} ${b.x.toFixed(1)} ${b.y.toFixed(1)}`;
}

/**
 * The route on a map (spec §2 "Home": an embedded interactive map): the route's
 * countries highlighted, a numbered marker per mission (missions of one region side by side),
 * the route line through them in order, and per mission the teams inside it now and whether its
 * flower has been reached. Markers are buttons that open a details panel, placed so that no two
 * overlap, and together one toolbar and one Tab stop: the arrow keys, Home and End move between
 * them in mission order. The map zooms with buttons or + and −, and pans by dragging or with
 * Shift + the arrow keys once zoomed in (a marker reached by keyboard comes into view). Drawn from
 * the site's own data only (atlas.json): no tile server or third party.
 */
export function RouteMap({ atlas, missions, labels, renderDetails, showProgress = true, headingId }: RouteMapWithAtlasProps) {
  const ids = useId();
  const captionId = `${ids}-caption`;
  const detailsId = `${ids}-details`;

  // Keyed by the regions' names and positions, not the missions array: new progress or another
  // language must not rebuild the geography nor reset the view.
  const places = JSON.stringify(missions.map((mission) => [mission.region, mission.position ?? null]));
  const regions = useMemo(
    () => mapRegions((JSON.parse(places) as [string, [number, number] | null][]).map(([region, position]) => (position ? { region, position } : { region }))),
    [places],
  );
  const geometry = useMemo(() => buildMapGeometry(atlas, regions), [atlas, regions]);
  const base = useMemo(() => baseView(geometry.width, geometry.height), [geometry]);

  const [view, setView] = useState<ViewBox>(base);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [viewportWidth, setViewportWidth] = useState(0);
  const [dragging, setDragging] = useState(false);
  const viewportRef = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  const suppressClick = useRef(false);

  // A new route (another edition) starts from the whole map.
  const [shownBase, setShownBase] = useState(base);
  if (shownBase !== base) {
    setShownBase(base);
    setView(base);
  }

  useLayoutEffect(() => {
    const element = viewportRef.current;
    if (!element) return;
    setViewportWidth(element.clientWidth);
    const observer = new ResizeObserver((entries) => {
      const width = entries[0]?.contentRect.width;
      if (width) setViewportWidth(width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const zoom = zoomOf(view, base);
  // Screen px per map unit at this zoom; before the first measurement, assume the map's own size.
  const pxPerUnit = (viewportWidth || geometry.width) / view.width;
  const size = markerSize(viewportWidth || geometry.width);

  const placed = useMemo((): Placed[] => {
    const onMap = missions.flatMap((mission) => {
      const anchor = geometry.anchors.get(mission.region);
      return anchor ? [{ mission, anchor }] : [];
    });
    // Each marker's box: the button, its badge when it shows one, and half the gap, in map units.
    const half = (size / 2 + MARKER_GAP / 2) / pxPerUnit;
    const extents = onMap.map(({ mission }): Extent => {
      const badge = showProgress && mission.teamCount > 0;
      return {
        left: half,
        bottom: half,
        top: half + (badge ? BADGE_OVERHANG.top / pxPerUnit : 0),
        right: half + (badge ? BADGE_OVERHANG.right / pxPerUnit : 0),
      };
    });
    const positions = spreadMarkers(
      onMap.map((item) => item.anchor),
      { minDistance: 2 * half, extents, bounds: { minX: 0, minY: 0, maxX: geometry.width, maxY: geometry.height } },
    );
    return onMap.map((item, index) => ({ ...item, position: positions[index] ?? item.anchor }));
  }, [missions, geometry, size, pxPerUnit, showProgress]);
  const notOnMap = missions.filter((mission) => !geometry.anchors.has(mission.region));

  const routeLine = useMemo(
    () =>
      placed
        .slice(1)
        .map((item, index) => legPath(placed[index]!.position, item.position))
        .join(''),
    [placed],
  );

  const zoomBy = useCallback((factor: number) => setView((current) => zoomView(current, factor, base)), [base]);

  const toggle = (id: number) => setSelectedId((current) => (current === id ? null : id));

  // On a narrow screen the details sit below the map and its legend, out of sight: a chosen
  // mission brings its details into view (only when they are not already there, and without
  // animation for people who asked for less motion).
  const detailsRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = detailsRef.current;
    if (selectedId === null || !element) return;
    const box = element.getBoundingClientRect();
    const visible = box.top >= 0 && box.top < window.innerHeight - 48;
    if (visible) return;
    const calm = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    element.scrollIntoView({ block: 'nearest', behavior: calm ? 'auto' : 'smooth' });
  }, [selectedId]);

  // The markers on the map are one Tab stop (roving tabindex): the last one focused, else the
  // first; the arrow keys, Home and End move between them in mission order.
  const markerButtons = useRef(new Map<number, HTMLButtonElement>());
  const [focusedId, setFocusedId] = useState<number | null>(null);
  const tabStopId = placed.some(({ mission }) => mission.id === focusedId) ? focusedId : placed[0]?.mission.id;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Shift + arrow pans the zoomed-in map; a plain arrow goes to another marker.
    const step = event.shiftKey ? { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key] : undefined;
    const index = placed.findIndex(({ mission }) => markerButtons.current.get(mission.id) === document.activeElement);
    const target = event.shiftKey || event.altKey || event.ctrlKey || event.metaKey || index < 0 ? null : rovingTarget(event.key, index, placed.length, { vertical: true });
    const next = target === null ? undefined : placed[target]?.mission.id;
    if (next !== undefined) {
      setFocusedId(next);
      // Its onFocus brings it into a zoomed-in view.
      markerButtons.current.get(next)?.focus();
    } else if (event.key === '+' || event.key === '=') zoomBy(ZOOM_STEP);
    else if (event.key === '-' || event.key === '_') zoomBy(1 / ZOOM_STEP);
    else if (event.key === '0') setView(base);
    else if (step && zoom > MIN_ZOOM) setView(panView(view, step[0]! * view.width * KEY_PAN, step[1]! * view.height * KEY_PAN, base));
    else if (event.key === 'Escape' && selectedId !== null) setSelectedId(null);
    else return;
    event.preventDefault();
    event.stopPropagation();
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || zoom <= MIN_ZOOM) return;
    drag.current = { pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, startView: view, moved: false };
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = event.clientX - current.startX;
    const dy = event.clientY - current.startY;
    if (!current.moved) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      current.moved = true;
      setDragging(true);
      event.currentTarget.setPointerCapture(event.pointerId);
    }
    const unitsPerPx = current.startView.width / (event.currentTarget.clientWidth || geometry.width);
    setView(panView(current.startView, -dx * unitsPerPx, -dy * unitsPerPx, base));
  };

  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    if (current.moved) {
      // The press that ended a drag is not a click on the marker under it.
      suppressClick.current = true;
      setDragging(false);
      if (event.currentTarget.hasPointerCapture(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
    }
  };

  const selected = missions.find((mission) => mission.id === selectedId);
  const anchorDot = 3 / pxPerUnit;

  /** A marker; `roving` for those on the map (one Tab stop), the others are Tab stops of their own. */
  const markerButton = (mission: RouteMapMission, roving: boolean, onFocus?: () => void) => (
    <button
      ref={
        roving
          ? (element) => {
              if (element) markerButtons.current.set(mission.id, element);
              else markerButtons.current.delete(mission.id);
            }
          : undefined
      }
      type="button"
      className={`${styles.marker} ${showProgress ? (mission.reached ? styles.reached : styles.notReached) : ''}`}
      tabIndex={roving && mission.id !== tabStopId ? -1 : 0}
      aria-pressed={selectedId === mission.id}
      aria-controls={detailsId}
      onClick={() => toggle(mission.id)}
      onFocus={() => {
        if (roving) setFocusedId(mission.id);
        onFocus?.();
      }}
      data-testid={`route-map-mission-${mission.id}`}
      data-reached={showProgress ? mission.reached : undefined}
      data-team-count={showProgress ? mission.teamCount : undefined}
    >
      {/* The name comes from this text, not from aria-label: the visible number and badge must
          be part of the accessible name (WCAG 2.5.3), so they are hidden and the label says them. */}
      <span className="sr-only">{mission.label}</span>
      <span aria-hidden="true">{mission.id}</span>
      {showProgress && mission.teamCount > 0 && (
        <span className={styles.badge} aria-hidden="true" data-testid={`route-map-badge-${mission.id}`}>
          {mission.teamCount}
        </span>
      )}
    </button>
  );

  return (
    <figure className={styles.figure} aria-labelledby={headingId} aria-describedby={captionId} data-testid="route-map">
      <figcaption id={captionId} className={styles.caption}>
        {labels.description}
      </figcaption>
      <div className={styles.layout}>
        <div className={styles.mapColumn}>
          <div className={styles.controls} role="group" aria-label={labels.controls}>
            <button
              type="button"
              className={styles.control}
              onClick={() => zoomBy(ZOOM_STEP)}
              disabled={zoom >= MAX_ZOOM}
              aria-label={labels.zoomIn}
              title={labels.zoomIn}
              data-testid="route-map-zoom-in"
            >
              <ZoomInIcon />
            </button>
            <button
              type="button"
              className={styles.control}
              onClick={() => zoomBy(1 / ZOOM_STEP)}
              disabled={zoom <= MIN_ZOOM}
              aria-label={labels.zoomOut}
              title={labels.zoomOut}
              data-testid="route-map-zoom-out"
            >
              <ZoomOutIcon />
            </button>
            <button
              type="button"
              className={styles.control}
              onClick={() => setView(base)}
              disabled={zoom <= MIN_ZOOM}
              aria-label={labels.reset}
              title={labels.reset}
              data-testid="route-map-reset"
            >
              <ResetIcon />
            </button>
            <span className={styles.zoomLevel} aria-hidden="true">
              {Math.round(zoom * 100)} %
            </span>
          </div>

          {/* Key and pointer handlers serve the buttons inside (from the markers: arrows to move
              between them, Shift + arrows to pan, + − 0 to zoom); the map itself is not a
              separate tab stop. */}
          <div
            ref={viewportRef}
            className={`${styles.viewport} ${zoom > MIN_ZOOM ? styles.pannable : ''} ${dragging ? styles.dragging : ''}`}
            style={{ aspectRatio: `${geometry.width} / ${geometry.height}` }}
            onKeyDown={onKeyDown}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={endDrag}
            onPointerCancel={endDrag}
            onClickCapture={(event) => {
              if (!suppressClick.current) return;
              suppressClick.current = false;
              event.stopPropagation();
              event.preventDefault();
            }}
            data-zoom={zoom.toFixed(2)}
          >
            <svg
              className={styles.svg}
              viewBox={`${view.x} ${view.y} ${view.width} ${view.height}`}
              aria-hidden="true"
              focusable="false"
              data-testid="route-map-svg"
            >
              <rect className={styles.sea} x={0} y={0} width={geometry.width} height={geometry.height} />
              <g>
                {geometry.countries.map((country) => (
                  <path key={country.name} d={country.d} className={country.highlighted ? styles.routeCountry : styles.country} vectorEffect="non-scaling-stroke" />
                ))}
              </g>
              <g>
                {geometry.seas.map((sea) => (
                  <path key={sea.key} d={sea.d} className={styles.routeSea} vectorEffect="non-scaling-stroke" />
                ))}
              </g>
              <path className={styles.routeLine} d={routeLine} vectorEffect="non-scaling-stroke" />
              <g className={styles.leaders}>
                {placed.map(({ mission, anchor, position }) => (
                  <g key={mission.id}>
                    <line x1={anchor.x} y1={anchor.y} x2={position.x} y2={position.y} vectorEffect="non-scaling-stroke" />
                    <circle cx={anchor.x} cy={anchor.y} r={anchorDot} />
                  </g>
                ))}
              </g>
            </svg>
            <div className={styles.markers} role="toolbar" aria-label={labels.markers} data-testid="route-map-markers">
              {placed.map(({ mission, position }) => {
                const { left, top } = toPercent(view, position);
                return (
                  <div key={mission.id} className={`${styles.markerItem} ${selectedId === mission.id ? styles.selectedItem : ''}`} style={{ left: `${left}%`, top: `${top}%` }}>
                    {markerButton(mission, true, () => {
                      // A marker reached by keyboard while zoomed in may lie outside the view: bring it in.
                      if (!isInView(view, position, (size / 2) / pxPerUnit)) setView(centreOn(view, position, base));
                    })}
                  </div>
                );
              })}
            </div>
          </div>

          {notOnMap.length > 0 && (
            <div className={styles.notOnMap}>
              <p>{labels.notOnMap}</p>
              <ul>
                {notOnMap.map((mission) => (
                  <li key={mission.id}>{markerButton(mission, false)}</li>
                ))}
              </ul>
            </div>
          )}

          <div className={styles.legend}>
            <p className={styles.legendTitle}>{labels.legend}</p>
            <ul className={styles.legendList}>
              <li>
                <span className={`${styles.swatch} ${styles.swatchRegion}`} aria-hidden="true" />
                {labels.legendRegion}
              </li>
              <li>
                <svg className={styles.swatchLine} viewBox="0 0 32 12" width="32" height="12" aria-hidden="true" focusable="false">
                  <path d="M1 9Q16 -2 31 9" />
                </svg>
                {labels.legendRoute}
              </li>
              {showProgress && (
                <>
                  <li>
                    <span className={`${styles.sample} ${styles.reached}`} aria-hidden="true">
                      1
                    </span>
                    {labels.legendReached}
                  </li>
                  <li>
                    <span className={`${styles.sample} ${styles.notReached}`} aria-hidden="true">
                      1
                    </span>
                    {labels.legendNotReached}
                  </li>
                  <li>
                    <span className={`${styles.sample} ${styles.reached}`} aria-hidden="true">
                      1<span className={styles.badge}>3</span>
                    </span>
                    {labels.legendTeams}
                  </li>
                </>
              )}
            </ul>
          </div>
        </div>

        <div ref={detailsRef} id={detailsId} className={styles.details} aria-live="polite" data-testid="route-map-details" data-mission-id={selected?.id}>
          {selected ? renderDetails(selected.id) : <p className={styles.detailsEmpty}>{labels.detailsEmpty}</p>}
        </div>
      </div>
    </figure>
  );
}
