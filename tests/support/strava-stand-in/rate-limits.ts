/**
 * Strava's two rate-limit windows as developers.strava.com/docs/rate-limits describes them: a
 * 15-minute limit that resets at natural quarter hours (0, 15, 30, 45 after the hour) and a daily
 * limit that resets at midnight UTC, each counted for all requests ("overall", X-RateLimit-*) and
 * for reads ("read", X-ReadRateLimit-*); the defaults are Strava's published ones (200/2,000
 * overall, 100/1,000 read). Windows are fixed and clock-aligned (a multiple of their length since
 * the epoch), which is what Strava's headers count; a sliding or token-bucket limiter would
 * answer other numbers, so this is counted here rather than by a limiter library. Every request
 * counts, the refused ones too (Strava's usage header goes past the limit).
 */

export interface StravaLimits {
  shortLimit: number;
  longLimit: number;
  readShortLimit?: number;
  readLongLimit?: number;
}

export interface RateVerdict {
  refused: boolean;
  headers: Record<string, string>;
}

const DEFAULT_LIMITS: Required<StravaLimits> = { shortLimit: 200, longLimit: 2000, readShortLimit: 100, readLongLimit: 1000 };

export class StravaRateWindows {
  private limits: Required<StravaLimits> = { ...DEFAULT_LIMITS };
  private counts = { shortWindow: -1, longWindow: -1, short: 0, long: 0, readShort: 0, readLong: 0 };
  private forced = 0;

  constructor(
    private readonly now: () => number,
    private readonly shortWindowMs = 15 * 60_000,
    private readonly longWindowMs = 24 * 60 * 60_000,
  ) {}

  /** Sets the limits; the read limits default to half the overall ones, as Strava's defaults are. */
  set(limits: StravaLimits): void {
    this.limits = {
      shortLimit: limits.shortLimit,
      longLimit: limits.longLimit,
      readShortLimit: limits.readShortLimit ?? Math.max(1, Math.floor(limits.shortLimit / 2)),
      readLongLimit: limits.readLongLimit ?? Math.max(1, Math.floor(limits.longLimit / 2)),
    };
  }

  /** The next `count` requests are refused with 429 whatever the usage. */
  burst(count: number): void {
    this.forced += count;
  }

  usage(): { short: number; long: number; readShort: number; readLong: number } {
    this.roll();
    const { short, long, readShort, readLong } = this.counts;
    return { short, long, readShort, readLong };
  }

  /** Counts one request (a read when `read`) and says whether it is over a limit. */
  take(read: boolean): RateVerdict {
    this.roll();
    const c = this.counts;
    c.short += 1;
    c.long += 1;
    if (read) {
      c.readShort += 1;
      c.readLong += 1;
    }
    const l = this.limits;
    let refused = c.short > l.shortLimit || c.long > l.longLimit
      || (read && (c.readShort > l.readShortLimit || c.readLong > l.readLongLimit));
    if (this.forced > 0) {
      this.forced -= 1;
      refused = true;
    }
    return {
      refused,
      headers: {
        'x-ratelimit-limit': `${l.shortLimit},${l.longLimit}`,
        'x-ratelimit-usage': `${c.short},${c.long}`,
        'x-readratelimit-limit': `${l.readShortLimit},${l.readLongLimit}`,
        'x-readratelimit-usage': `${c.readShort},${c.readLong}`,
      },
    };
  }

  private roll(): void {
    const t = this.now();
    const shortWindow = Math.floor(t / this.shortWindowMs);
    const longWindow = Math.floor(t / this.longWindowMs);
    if (shortWindow !== this.counts.shortWindow) {
      this.counts.shortWindow = shortWindow;
      this.counts.short = 0;
      this.counts.readShort = 0;
    }
    if (longWindow !== this.counts.longWindow) {
      this.counts.longWindow = longWindow;
      this.counts.long = 0;
      this.counts.readLong = 0;
    }
  }
}
