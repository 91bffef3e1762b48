/**
 * Zoom and pan of the route map as changes of the SVG viewBox (pure). All values are in the
 * map's own units (the projection's pixels at zoom 1). The view never leaves the base map and
 * never shows more than it, so zoom 1 is the whole map and there is nothing to pan.
 */

export interface ViewBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Point {
  x: number;
  y: number;
}

/** Zoom bounds: 1 = the whole map. */
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 8;

/** The whole map: the base view. */
export function baseView(width: number, height: number): ViewBox {
  return { x: 0, y: 0, width, height };
}

/** How far `view` is zoomed in, relative to `base` (1 = whole map). */
export function zoomOf(view: ViewBox, base: ViewBox): number {
  return base.width / view.width;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Moves (and if need be shrinks) `view` so that it lies inside `base`. */
export function clampView(view: ViewBox, base: ViewBox): ViewBox {
  const width = Math.min(view.width, base.width);
  const height = Math.min(view.height, base.height);
  return {
    x: clamp(view.x, base.x, base.x + base.width - width),
    y: clamp(view.y, base.y, base.y + base.height - height),
    width,
    height,
  };
}

/**
 * Zooms by `factor` (> 1 in, < 1 out) keeping `focus` (default: the view's centre) where it is
 * on the screen; the zoom stays within MIN_ZOOM..MAX_ZOOM and the view inside the map.
 */
export function zoomView(view: ViewBox, factor: number, base: ViewBox, focus?: Point): ViewBox {
  const zoom = clamp(zoomOf(view, base) * factor, MIN_ZOOM, MAX_ZOOM);
  const width = base.width / zoom;
  const height = base.height / zoom;
  const f = focus ?? { x: view.x + view.width / 2, y: view.y + view.height / 2 };
  return clampView(
    { x: f.x - ((f.x - view.x) * width) / view.width, y: f.y - ((f.y - view.y) * height) / view.height, width, height },
    base,
  );
}

/** Moves the view by (dx, dy) map units, staying inside the map. */
export function panView(view: ViewBox, dx: number, dy: number, base: ViewBox): ViewBox {
  return clampView({ ...view, x: view.x + dx, y: view.y + dy }, base);
}

/** The same zoom, centred on `point` as far as the map's edges allow. */
export function centreOn(view: ViewBox, point: Point, base: ViewBox): ViewBox {
  return clampView({ ...view, x: point.x - view.width / 2, y: point.y - view.height / 2 }, base);
}

/** Whether `point` lies inside the view, at least `margin` map units from its edges. */
export function isInView(view: ViewBox, point: Point, margin = 0): boolean {
  return (
    point.x >= view.x + margin &&
    point.x <= view.x + view.width - margin &&
    point.y >= view.y + margin &&
    point.y <= view.y + view.height - margin
  );
}

/** Where `point` appears on the view, in percent of its width and height (for HTML overlays). */
export function toPercent(view: ViewBox, point: Point): { left: number; top: number } {
  return { left: ((point.x - view.x) / view.width) * 100, top: ((point.y - view.y) / view.height) * 100 };
}
