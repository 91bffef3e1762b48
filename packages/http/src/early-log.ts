/**
 * A log for what happens while a service starts, before its Fastify app (and pino logger)
 * exists — a pool whose database is not up yet — and through the app's logger after
 * `attach(app)`. Before that, lines go to stderr as JSON in pino's shape (level 40 = warn).
 */
import type { FastifyInstance } from 'fastify';

export interface EarlyLog {
  warn(fields: Record<string, unknown>, message: string): void;
  /** From now on, write through `app.log`. */
  attach(app: FastifyInstance): void;
}

/** Creates an EarlyLog (see the module docs). */
export function earlyLog(): EarlyLog {
  let target: FastifyInstance | null = null;
  return {
    warn(fields, message) {
      if (target) return target.log.warn(fields, message);
      const err = fields.err instanceof Error ? fields.err.message : fields.err;
      console.error(JSON.stringify({ level: 40, time: Date.now(), msg: message, ...fields, ...(err === undefined ? {} : { err }) }));
    },
    attach(app) {
      target = app;
    },
  };
}
