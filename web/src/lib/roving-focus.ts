/**
 * Roving tabindex (WAI-ARIA Authoring Practices, "Managing focus within components"): a widget
 * of many items (the home page's route bar, the map's markers) is one Tab stop; the arrow keys
 * move between its items. Pure: which item a key leads to; the component moves the focus.
 */

export interface RovingOptions {
  /** Up and Down move too (previous and next), as in a list or a map; default false. */
  vertical?: boolean;
  /** Past the last item comes the first again, and before the first the last; default true. */
  wrap?: boolean;
}

/**
 * The index of the item `key` leads to from `index` among `count` items: ArrowRight (and
 * ArrowDown when vertical) the next, ArrowLeft (ArrowUp) the previous, Home the first, End the
 * last. Null when the key is not one of these (let it do what it does) or there are no items.
 */
export function rovingTarget(key: string, index: number, count: number, options: RovingOptions = {}): number | null {
  if (count <= 0) return null;
  const wrap = options.wrap !== false;
  const current = Math.min(Math.max(0, index), count - 1);
  const step = (delta: number) => {
    const next = current + delta;
    if (wrap) return (next + count) % count;
    return Math.min(Math.max(0, next), count - 1);
  };
  switch (key) {
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'ArrowRight':
      return step(1);
    case 'ArrowLeft':
      return step(-1);
    case 'ArrowDown':
      return options.vertical ? step(1) : null;
    case 'ArrowUp':
      return options.vertical ? step(-1) : null;
    default:
      return null;
  }
}
