/**
 * Validators built from Strava's published API description (swagger.json beside this file), so a
 * test can check that an answer has the shape Strava documents: `answerValidator('/athlete/activities')`
 * for a path's 200 answer, `definitionValidator('Fault')` for one definition.
 *
 * Three departures, all Strava's own (the third is at SummarySegment below): Swagger 2.0 has no `nullable`, yet Strava sends `null` for
 * absent values of typed fields (location_city, workout_type, gear_id, kom_rank, … in every
 * recorded payload), so every typed field also takes null here; and its formats `float`,
 * `double`, `int32`, `int64` only describe storage, so they accept any number.
 */
import { readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export const stravaSwagger = JSON.parse(readFileSync(new URL('./swagger.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, { schema?: unknown }> }>>;
  definitions: Record<string, Record<string, unknown>>;
};

/**
 * Every `type: X` (an object's or an array's included) also accepts null, and so do enumerations
 * (Strava sends `"sex": null`) except the activity's own types: a sport_type is never null.
 */
const NEVER_NULL = new Set(['SportType', 'ActivityType']);
function nullTolerant(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullTolerant);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = nullTolerant(value);
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
  return out;
}

// A third, seen in a recorded payload: SummarySegment's activity_type lists Ride and Run only, yet
// a Zwift ride's segment says VirtualRide (fixtures/virtualride.json); it is taken as any string.
const segment = stravaSwagger.definitions.SummarySegment as { properties: Record<string, Record<string, unknown>> };
delete segment.properties.activity_type!.enum;

const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
for (const format of ['float', 'double', 'int32', 'int64']) ajv.addFormat(format, { type: 'number', validate: () => true });
ajv.addSchema({
  $id: 'strava-swagger.json',
  definitions: Object.fromEntries(Object.entries(stravaSwagger.definitions).map(([name, schema]) =>
    [name, NEVER_NULL.has(name) ? schema : nullTolerant(schema)])),
});

const rebase = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(nullTolerant(schema)).replaceAll('"#/definitions/', '"strava-swagger.json#/definitions/'));

/** The validator of one definition (e.g. 'DetailedActivity', 'Fault'). */
export function definitionValidator(name: string): ValidateFunction {
  if (!stravaSwagger.definitions[name]) throw new Error(`no definition ${name} in swagger.json`);
  return ajv.compile({ $ref: `strava-swagger.json#/definitions/${name}` });
}

/** The validator of a path's answer (`status` 'default' is the Fault answer). */
export function answerValidator(path: string, method = 'get', status = '200'): ValidateFunction {
  const schema = stravaSwagger.paths[path]?.[method]?.responses[status]?.schema;
  if (!schema) throw new Error(`no ${status} answer of ${method.toUpperCase()} ${path} in swagger.json`);
  return ajv.compile(rebase(schema) as object);
}
