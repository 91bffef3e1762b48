export {
  prestige,
  inLapDistance,
  barMaximum,
  lapPercentage,
  blueFlowers,
  distanceToNextFlower,
  missionAt,
  teamProgress,
} from './progress';
export type { TeamProgress } from './progress';
