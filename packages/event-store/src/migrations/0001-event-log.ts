/**
 * Event store migration 0001: schema `es` as the first release made it (under the hand-rolled runner it was
 * version 1 of the hand-rolled runner, `es.schema_migrations`; runner.ts adopts such databases).
 *
 * - `es.streams(stream, revision)`: one row per stream with its last revision; the row lock
 *   serialises appends to one stream (optimistic concurrency is checked under it);
 * - `es.events`: the log. `global_position` is the primary key (appends only ever add at the
 *   end of its index); `event_id` unique (idempotency); `(stream, revision)` unique (readStream);
 *   `(type, global_position)` indexed (readAll with a type filter);
 * - `es.subject_keys`: per-subject AES keys for crypto-shredding (see personal-data.ts);
 * - the sequence `es.global_position`, the functions `es.append` and `es.read_all_of_types`
 *   (see postgres-event-store.ts).
 *
 * Never edit it: a database that ran it keeps what it made. Change the schema in a new file.
 * No `down`: the log is the only source of truth, and no migration may throw it away.
 */
import { sql, type Kysely } from 'kysely';

/**
 * Advisory lock key ('esappend' in ASCII) that `es.append` holds from allocating global positions
 * to commit. Exported for tests and operators (pg_locks shows it as classid/objid halves).
 */
export const APPEND_LOCK = '7310293755702373988';

const SQL = /* sql */ `
      CREATE SCHEMA IF NOT EXISTS es;

      CREATE SEQUENCE es.global_position AS bigint START 1;

      CREATE TABLE es.streams (
        stream   text PRIMARY KEY,
        revision bigint NOT NULL
      );

      CREATE TABLE es.events (
        global_position bigint PRIMARY KEY,
        event_id        uuid NOT NULL UNIQUE,
        stream          text NOT NULL,
        revision        bigint NOT NULL,
        type            text NOT NULL,
        schema_version  int NOT NULL,
        data            jsonb NOT NULL,
        metadata        jsonb NOT NULL,
        recorded_at     timestamptz NOT NULL DEFAULT now(),
        UNIQUE (stream, revision)
      );
      CREATE INDEX events_type_position ON es.events (type, global_position);

      CREATE TABLE es.subject_keys (
        subject    text PRIMARY KEY,
        key        bytea,
        created_at timestamptz NOT NULL DEFAULT now(),
        erased_at  timestamptz,
        CHECK ((key IS NULL) = (erased_at IS NOT NULL))
      );

      -- readAll with a type filter: per type, one ordered range of the (type, global_position)
      -- index stopping after p_max rows; then the first p_max of their union. At most
      -- types x p_max rows are read per batch. Bitmap and sequential scans are ruled out because,
      -- with statistics older than the data, the planner would take them and then sort the whole
      -- tail of the log on every batch (a replay would become quadratic).
      CREATE FUNCTION es.read_all_of_types(p_after bigint, p_max int, p_types text[])
      RETURNS SETOF es.events
      LANGUAGE sql STABLE
      SET enable_bitmapscan = off
      SET enable_seqscan = off
      AS $fn$
        SELECT x.* FROM unnest(p_types) AS t(type)
        CROSS JOIN LATERAL (
          SELECT * FROM es.events e WHERE e.type = t.type AND e.global_position > p_after
          ORDER BY e.global_position LIMIT p_max
        ) x
        ORDER BY x.global_position LIMIT p_max
      $fn$;

      -- One append (one or more streams), all or nothing, in one round trip.
      --   p_streams[i], p_expected[i] ('any' | 'no_stream' | 'stream_exists' | '<revision>'),
      --   p_counts[i] = number of events for request i; p_events = the events of all requests
      --   in request order, each {s: <1-based request index>, id, type, v, data, metadata}.
      -- Returns one row per request (0-based index, next expected revision, last position).
      -- Raises ESWER (detail {"index", "actual"}) on a wrong expected revision and ESDUP
      -- (detail = the event id) when an id is stored elsewhere or only some ids are stored.
      CREATE FUNCTION es.append(p_streams text[], p_expected text[], p_counts int[], p_events jsonb)
      RETURNS TABLE (request_index int, next_expected_revision bigint, last_position bigint)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        n int := cardinality(p_streams);
        current_rev bigint[] := array_fill(-1::bigint, ARRAY[n]);
        found_ids int[] := array_fill(0, ARRAY[n]);
        found_example uuid[] := array_fill(NULL::uuid, ARRAY[n]);
        found_last_pos bigint[] := array_fill(0::bigint, ARRAY[n]);
        repeat_of bool[] := array_fill(false, ARRAY[n]);
        i int;
        rev bigint;
        expected text;
        matches bool;
        hit record;
        to_write int := 0;
        first_pos bigint;
        written int := 0;
      BEGIN
        -- 1. Lock every stream row, in name order so that two multi-stream appends cannot
        --    deadlock. A missing stream gets a placeholder row (revision -1) that this
        --    transaction holds; it is replaced below or rolled back with the failed append.
        FOR i IN SELECT u.ord FROM unnest(p_streams) WITH ORDINALITY AS u(name, ord) ORDER BY u.name LOOP
          IF p_counts[i] = 0 THEN
            SELECT s.revision INTO rev FROM es.streams s WHERE s.stream = p_streams[i] FOR SHARE;
            IF NOT FOUND THEN rev := -1; END IF;
          ELSE
            LOOP
              SELECT s.revision INTO rev FROM es.streams s WHERE s.stream = p_streams[i] FOR UPDATE;
              EXIT WHEN FOUND;
              INSERT INTO es.streams (stream, revision) VALUES (p_streams[i], -1)
                ON CONFLICT (stream) DO NOTHING;
              IF FOUND THEN rev := -1; EXIT; END IF;
            END LOOP;
          END IF;
          current_rev[i] := rev;
        END LOOP;

        -- 2. Idempotency (before the revision check: a repeat succeeds whatever it expected).
        --    Runs after the stream locks, so a concurrent repeat of the same append sees it.
        FOR hit IN
          SELECT (x.ev->>'s')::int AS req, e.stream AS stored_in, e.event_id, e.global_position
          FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(ev, ord)
          JOIN es.events e ON e.event_id = (x.ev->>'id')::uuid
          ORDER BY x.ord
        LOOP
          IF hit.stored_in <> p_streams[hit.req] THEN
            RAISE EXCEPTION 'event id % is stored in another stream', hit.event_id
              USING ERRCODE = 'ESDUP', DETAIL = hit.event_id::text;
          END IF;
          found_ids[hit.req] := found_ids[hit.req] + 1;
          found_example[hit.req] := coalesce(found_example[hit.req], hit.event_id);
          found_last_pos[hit.req] := hit.global_position;
        END LOOP;
        FOR i IN 1..n LOOP
          IF found_ids[i] > 0 THEN
            IF found_ids[i] < p_counts[i] THEN
              RAISE EXCEPTION 'event id % is already stored, but not every event of the append is', found_example[i]
                USING ERRCODE = 'ESDUP', DETAIL = found_example[i]::text;
            END IF;
            repeat_of[i] := true;
          END IF;
        END LOOP;

        -- 3. Expected revisions (KurrentDB semantics; -1 = the stream does not exist).
        FOR i IN 1..n LOOP
          CONTINUE WHEN repeat_of[i];
          expected := p_expected[i];
          matches := CASE expected
            WHEN 'any' THEN true
            WHEN 'no_stream' THEN current_rev[i] = -1
            WHEN 'stream_exists' THEN current_rev[i] >= 0
            ELSE current_rev[i] = expected::bigint
          END;
          IF NOT matches THEN
            RAISE EXCEPTION 'stream %: expected revision %, actual %', p_streams[i], expected, current_rev[i]
              USING ERRCODE = 'ESWER',
                    DETAIL = json_build_object('index', i - 1, 'actual', current_rev[i])::text;
          END IF;
          IF p_counts[i] > 0 THEN
            UPDATE es.streams s SET revision = current_rev[i] + p_counts[i] WHERE s.stream = p_streams[i];
            to_write := to_write + p_counts[i];
          END IF;
        END LOOP;

        -- 4. Global positions, allocated under a transaction-scoped lock held until commit:
        --    the next appender can only take its positions after this transaction is visible
        --    (or rolled back), so positions become visible in increasing order. Only es.append
        --    calls nextval, and only under the lock, so the block is contiguous.
        IF to_write > 0 THEN
          PERFORM pg_advisory_xact_lock(${APPEND_LOCK});
          first_pos := nextval('es.global_position');
          IF to_write > 1 THEN
            PERFORM setval('es.global_position', first_pos + to_write - 1);
          END IF;
          INSERT INTO es.events (global_position, event_id, stream, revision, type, schema_version, data, metadata)
          SELECT first_pos - 1 + row_number() OVER (ORDER BY x.ord),
                 (x.ev->>'id')::uuid,
                 p_streams[(x.ev->>'s')::int],
                 current_rev[(x.ev->>'s')::int] + row_number() OVER (PARTITION BY x.ev->>'s' ORDER BY x.ord),
                 x.ev->>'type',
                 (x.ev->>'v')::int,
                 coalesce(x.ev->'data', 'null'::jsonb),
                 coalesce(x.ev->'metadata', '{}'::jsonb)
          FROM jsonb_array_elements(p_events) WITH ORDINALITY AS x(ev, ord)
          WHERE NOT repeat_of[(x.ev->>'s')::int];
        END IF;

        -- 5. One row per request, in request order (= the order positions were given out).
        FOR i IN 1..n LOOP
          request_index := i - 1;
          IF repeat_of[i] THEN
            next_expected_revision := current_rev[i];
            last_position := found_last_pos[i];
          ELSIF p_counts[i] = 0 THEN
            next_expected_revision := current_rev[i];
            last_position := coalesce((SELECT e.global_position FROM es.events e
                                       WHERE e.stream = p_streams[i] AND e.revision = current_rev[i]), 0);
          ELSE
            written := written + p_counts[i];
            next_expected_revision := current_rev[i] + p_counts[i];
            last_position := first_pos + written - 1;
          END IF;
          RETURN NEXT;
        END LOOP;
      END
      $fn$;
`;

/** Creates the sequence, tables, index and functions of schema `es`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SQL).execute(db);
}
