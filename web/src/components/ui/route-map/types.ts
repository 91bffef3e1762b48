/** What the route map shows of one mission; the caller decides the words and the progress. */
export interface RouteMapMission {
  /** Mission id, shown on the marker (1–24 in 2025). */
  id: number;
  /** Region key: the mission's English name, looked up in regions.json. */
  region: string;
  /**
   * Where the marker sits, [longitude, latitude] in degrees (the edition's Mission.position); it
   * wins over regions.json's anchor. Without it and without a known region the mission is listed
   * below the map instead.
   */
  position?: readonly [number, number];
  /** Accessible name of the marker: number, region, operation, teams, state. */
  label: string;
  /** Teams inside the mission now; a badge shows the number when above 0. */
  teamCount: number;
  /** Whether some team has reached the mission's flower (filled marker, else a dashed outline). */
  reached: boolean;
}

/** The map's words, translated by the caller (components/ui has no namespace of its own). */
export interface RouteMapLabels {
  /** Visible caption and accessible description of the figure. */
  description: string;
  /** Accessible name of the markers' toolbar (one Tab stop, arrow keys between the markers). */
  markers: string;
  controls: string;
  zoomIn: string;
  zoomOut: string;
  reset: string;
  legend: string;
  legendRegion: string;
  legendRoute: string;
  legendReached: string;
  legendNotReached: string;
  legendTeams: string;
  /** Shown in the details panel before a mission is chosen. */
  detailsEmpty: string;
  /** Heading of the list of missions whose region the map does not know. */
  notOnMap: string;
}
