/**
 * The shapes the Strava stand-in speaks, as Strava's published API description names them
 * (swagger.json beside this file: definitions SummaryAthlete, SummaryActivity, DetailedActivity,
 * PolylineMap, Fault) and as developers.strava.com/docs/authentication and /docs/webhooks
 * describe the OAuth and webhook answers, which the swagger does not cover.
 *
 * Units are Strava's: distance in metres, times in seconds, dates ISO-8601 (`start_date` UTC with
 * `Z`, `start_date_local` the local wall clock also written with `Z`, as Strava does), epochs in
 * seconds.
 */

/** swagger `SportType` (the sport_type enumeration Strava documents). */
export const SPORT_TYPES = [
  'AlpineSki', 'BackcountrySki', 'Badminton', 'Canoeing', 'Crossfit', 'EBikeRide', 'Elliptical',
  'EMountainBikeRide', 'Golf', 'GravelRide', 'Handcycle', 'HighIntensityIntervalTraining', 'Hike',
  'IceSkate', 'InlineSkate', 'Kayaking', 'Kitesurf', 'MountainBikeRide', 'NordicSki', 'Pickleball',
  'Pilates', 'Racquetball', 'Ride', 'RockClimbing', 'RollerSki', 'Rowing', 'Run', 'Sail',
  'Skateboard', 'Snowboard', 'Snowshoe', 'Soccer', 'Squash', 'StairStepper', 'StandUpPaddling',
  'Surfing', 'Swim', 'TableTennis', 'Tennis', 'TrailRun', 'Velomobile', 'VirtualRide', 'VirtualRow',
  'VirtualRun', 'Walk', 'WeightTraining', 'Wheelchair', 'Windsurf', 'Workout', 'Yoga',
] as const;
export type SportType = (typeof SPORT_TYPES)[number];

/** swagger `ActivityType`, the deprecated `type` (new sport types fall back to their parent). */
export const ACTIVITY_TYPES = [
  'AlpineSki', 'BackcountrySki', 'Canoeing', 'Crossfit', 'EBikeRide', 'Elliptical', 'Golf',
  'Handcycle', 'Hike', 'IceSkate', 'InlineSkate', 'Kayaking', 'Kitesurf', 'NordicSki', 'Ride',
  'RockClimbing', 'RollerSki', 'Rowing', 'Run', 'Sail', 'Skateboard', 'Snowboard', 'Snowshoe',
  'Soccer', 'StairStepper', 'StandUpPaddling', 'Surfing', 'Swim', 'Velomobile', 'VirtualRide',
  'VirtualRun', 'Walk', 'WeightTraining', 'Wheelchair', 'Windsurf', 'Workout', 'Yoga',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** swagger `MetaAthlete`. */
export interface MetaAthlete {
  id: number;
  resource_state?: number;
}

/** swagger `SummaryAthlete` (what the token exchange and GET /athlete answer without profile:read_all). */
export interface StravaAthlete {
  id: number;
  resource_state: number;
  username: string | null;
  firstname: string;
  lastname: string;
  bio?: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  sex: 'M' | 'F' | null;
  premium: boolean;
  summit: boolean;
  created_at: string;
  updated_at: string;
  badge_type_id?: number;
  weight?: number | null;
  profile_medium: string;
  profile: string;
  friend?: null;
  follower?: null;
}

/** swagger `PolylineMap`. */
export interface PolylineMap {
  id: string;
  polyline?: string | null;
  summary_polyline: string | null;
  resource_state?: number;
}

/**
 * swagger `DetailedActivity` (SummaryActivity plus description, calories, laps, splits, …).
 * Fields Strava sends beyond the swagger (visibility, utc_offset, …) are typed loosely: the
 * recorded fixtures carry them and so does the stand-in's answer.
 */
export interface DetailedActivity {
  id: number;
  resource_state: number;
  external_id?: string | null;
  upload_id?: number | null;
  upload_id_str?: string;
  athlete: MetaAthlete;
  name: string;
  /** Metres. */
  distance: number;
  /** Seconds. */
  moving_time: number;
  /** Seconds. */
  elapsed_time: number;
  total_elevation_gain: number;
  elev_high?: number;
  elev_low?: number;
  /** Deprecated by Strava in favour of sport_type. */
  type: ActivityType | string;
  sport_type: SportType | string;
  /** UTC, `2018-02-16T14:52:54Z`. */
  start_date: string;
  /** Local wall clock written with `Z`, `2018-02-16T06:52:54Z`. */
  start_date_local: string;
  /** `(GMT-08:00) America/Los_Angeles`. */
  timezone: string;
  /** Seconds east of UTC (not in the swagger, always in Strava's answers). */
  utc_offset?: number;
  start_latlng: [number, number] | [];
  end_latlng: [number, number] | [];
  achievement_count?: number;
  kudos_count?: number;
  comment_count?: number;
  athlete_count?: number;
  photo_count?: number;
  total_photo_count?: number;
  map: PolylineMap;
  trainer: boolean;
  commute: boolean;
  manual: boolean;
  private: boolean;
  /** 'everyone' | 'followers_only' | 'only_me' (not in the swagger; Strava sends it). */
  visibility?: string;
  flagged?: boolean;
  workout_type?: number | null;
  average_speed?: number;
  max_speed?: number;
  gear_id?: string | null;
  device_name?: string;
  description?: string | null;
  calories?: number;
  [field: string]: unknown;
}

/** swagger `SummaryActivity`: what GET /athlete/activities lists (resource_state 2). */
export type SummaryActivity = Omit<DetailedActivity, 'description' | 'calories' | 'segment_efforts' | 'splits_metric' | 'splits_standard' | 'laps' | 'best_efforts' | 'photos' | 'gear' | 'embed_token'>;

/** swagger `Fault`: Strava's error body. */
export interface StravaFault {
  message: string;
  errors: { resource: string; field: string; code: string }[];
}

/**
 * A webhook event as developers.strava.com/docs/webhooks shows it. `updates` holds strings
 * (Strava sends `"private": "true"`, `"authorized": "false"`).
 */
export interface StravaEvent {
  object_type: 'activity' | 'athlete';
  object_id: number;
  aspect_type: 'create' | 'update' | 'delete';
  updates: Record<string, string>;
  owner_id: number;
  subscription_id: number;
  /** Epoch seconds. */
  event_time: number;
}

/** A push subscription as GET /push_subscriptions lists it. */
export interface PushSubscription {
  id: number;
  resource_state: number;
  application_id: number;
  callback_url: string;
  created_at: string;
  updated_at: string;
}

/** One webhook delivery: every attempt's HTTP status (0 = no answer in time / connection refused). */
export interface Delivery {
  event: StravaEvent;
  statuses: number[];
  delivered: boolean;
}
