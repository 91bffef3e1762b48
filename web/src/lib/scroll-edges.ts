/**
 * Whether a box that scrolls sideways hides content before or after what it shows: the data
 * tables and the home page's route bar show a shadow at such an edge and a line saying that the
 * box scrolls, so that columns cut off at 360 px do not pass for the whole table.
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

export interface ScrollEdges {
  /** Content is hidden before the start edge (scrolled away from the start). */
  start: boolean;
  /** Content is hidden past the end edge. */
  end: boolean;
}

const NONE: ScrollEdges = { start: false, end: false };

/**
 * The hidden sides of a horizontal scroller, from its scrollLeft, clientWidth and scrollWidth
 * (CSS px). A pixel of slack absorbs the fractions that zoom and rounding leave behind.
 */
export function scrollEdges(scrollLeft: number, clientWidth: number, scrollWidth: number): ScrollEdges {
  if (scrollWidth <= clientWidth + 1) return NONE;
  return { start: scrollLeft > 1, end: scrollLeft + clientWidth < scrollWidth - 1 };
}

/**
 * The scroll edges of the element the returned ref is attached to, kept current as it scrolls
 * and as it or its content resizes. Re-renders only when an edge changes.
 */
export function useScrollEdges<T extends HTMLElement>(): [RefObject<T | null>, ScrollEdges] {
  const ref = useRef<T>(null);
  const [edges, setEdges] = useState<ScrollEdges>(NONE);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const update = () => {
      const next = scrollEdges(element.scrollLeft, element.clientWidth, element.scrollWidth);
      setEdges((current) => (current.start === next.start && current.end === next.end ? current : next));
    };
    update();
    element.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(element);
    for (const child of Array.from(element.children)) observer.observe(child);
    return () => {
      element.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, []);

  return [ref, edges];
}
