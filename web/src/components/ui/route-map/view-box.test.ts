import { describe, expect, it } from 'vitest';
import { baseView, centreOn, clampView, isInView, MAX_ZOOM, panView, toPercent, zoomOf, zoomView } from './view-box';

const base = baseView(1000, 600);

describe('zoomView', () => {
  it('zooms in around the centre by default', () => {
    const view = zoomView(base, 2, base);
    expect(view).toEqual({ x: 250, y: 150, width: 500, height: 300 });
    expect(zoomOf(view, base)).toBe(2);
  });

  it('keeps the focus point where it is on the screen', () => {
    const view = zoomView(base, 2, base, { x: 200, y: 300 });
    // 200 was at 20 % of the width and stays there.
    expect((200 - view.x) / view.width).toBeCloseTo(0.2);
    expect((300 - view.y) / view.height).toBeCloseTo(0.5);
  });

  it('never shows more than the whole map, nor zooms past the maximum', () => {
    expect(zoomView(base, 0.5, base)).toEqual(base);
    expect(zoomOf(zoomView(base, 100, base), base)).toBe(MAX_ZOOM);
  });

  it('zooming out near an edge stays inside the map', () => {
    const corner = { x: 0, y: 0, width: 250, height: 150 };
    const out = zoomView(corner, 0.5, base, { x: 240, y: 140 });
    expect(out.x).toBeGreaterThanOrEqual(0);
    expect(out.y).toBeGreaterThanOrEqual(0);
    expect(out.width).toBe(500);
  });
});

describe('panView and clampView', () => {
  const zoomed = { x: 250, y: 150, width: 500, height: 300 };

  it('moves the view', () => {
    expect(panView(zoomed, 100, -50, base)).toEqual({ x: 350, y: 100, width: 500, height: 300 });
  });

  it('stops at the map edges', () => {
    expect(panView(zoomed, 10_000, 10_000, base)).toEqual({ x: 500, y: 300, width: 500, height: 300 });
    expect(panView(zoomed, -10_000, -10_000, base)).toEqual({ x: 0, y: 0, width: 500, height: 300 });
  });

  it('cannot pan the whole map', () => {
    expect(panView(base, 100, 100, base)).toEqual(base);
    expect(clampView({ x: -5, y: 3, width: 2000, height: 900 }, base)).toEqual(base);
  });
});

describe('centreOn, isInView and toPercent', () => {
  const zoomed = { x: 250, y: 150, width: 500, height: 300 };

  it('centres the view on a point as far as the edges allow', () => {
    expect(centreOn(zoomed, { x: 900, y: 300 }, base)).toEqual({ x: 500, y: 150, width: 500, height: 300 });
  });

  it('tells whether a point is in view, with a margin', () => {
    expect(isInView(zoomed, { x: 260, y: 200 })).toBe(true);
    expect(isInView(zoomed, { x: 260, y: 200 }, 20)).toBe(false);
    expect(isInView(zoomed, { x: 100, y: 200 })).toBe(false);
  });

  it('gives a point as percent of the view', () => {
    expect(toPercent(zoomed, { x: 500, y: 300 })).toEqual({ left: 50, top: 50 });
    expect(toPercent(base, { x: 0, y: 600 })).toEqual({ left: 0, top: 100 });
  });
});
