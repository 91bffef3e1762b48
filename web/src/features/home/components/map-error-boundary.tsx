import { Component, type ReactNode } from 'react';

interface MapErrorBoundaryProps {
  /** Shown instead of the children once they have failed (e.g. the map's chunk did not load). */
  fallback: ReactNode;
  children: ReactNode;
}

/** Keeps a failing map (a chunk that could not be fetched) from taking the whole page down. */
export class MapErrorBoundary extends Component<MapErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
