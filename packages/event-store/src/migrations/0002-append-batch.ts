/**
 * Event store migration 0002: `es.append_batch`, group commit.
 *
 * Several independent appends (groups), coalesced by PostgresEventStore while an earlier batch
 * was committing, run in ONE transaction with one WAL flush and one hold of the append lock,
 * and each group is still checked and answered on its own: a group whose expected revision is
 * wrong, or whose event ids are stored elsewhere, writes nothing and the other groups go on.
 *
 * The function is set-based (a fixed number of statements whatever the batch's size), so a
 * batch of 1 costs about what `es.append` cost and a batch of 5 000 (the bulk importer) no more
 * statements. Its precondition, kept by the caller (PostgresEventStore's batcher): a stream
 * appears in at most one request of the whole batch and an event id at most once, so groups
 * cannot depend on each other. Global order without skips is kept exactly as `es.append` keeps
 * it (migration 0001): positions are allocated under APPEND_LOCK, held until commit.
 *
 * Never edit it once applied; change the function in a new migration.
 */
import { sql, type Kysely } from 'kysely';
import { APPEND_LOCK } from './0001-event-log';

const SQL = /* sql */ `
      -- p_groups[i]: the 0-based group of request i (requests of a group are contiguous);
      -- p_streams[i], p_expected[i] ('any' | 'no_stream' | 'stream_exists' | '<revision>'),
      -- p_counts[i] as in es.append; p_events: every event of every request in request order,
      -- each {s: <1-based request index>, k: <1-based index in its request>, id, type, v, data,
      -- metadata}; p_ids: their ids, in order.
      -- One row per request, in request order: outcome 'ok' | 'repeat' | 'wer' | 'dup' (the
      -- whole group's: a refused group writes nothing), the next expected revision and last
      -- position ('ok', 'repeat'), and detail: for 'wer' {"index": <0-based request index within
      -- the group>, "actual": <revision, -1 = no stream>}, for 'dup' the event id.
      CREATE FUNCTION es.append_batch(p_groups int[], p_streams text[], p_expected text[], p_counts int[], p_events jsonb, p_ids uuid[])
      RETURNS TABLE (request_index int, outcome text, next_expected_revision bigint, last_position bigint, detail text)
      LANGUAGE plpgsql
      -- Every statement below is an index probe or a scan of the arguments: never the whole log.
      SET enable_seqscan = off
      AS $fn$
      DECLARE
        n int := cardinality(p_streams);
        groups int := coalesce(p_groups[n], -1) + 1;
        current_rev bigint[];
        found_ids int[] := array_fill(0, ARRAY[n]);
        found_example uuid[] := array_fill(NULL::uuid, ARRAY[n]);
        found_last_pos bigint[] := array_fill(0::bigint, ARRAY[n]);
        group_outcome text[] := array_fill('ok'::text, ARRAY[groups]);
        group_detail text[] := array_fill(NULL::text, ARRAY[groups]);
        group_first int[] := array_fill(0, ARRAY[groups]);
        writes bool[] := array_fill(false, ARRAY[n]);
        hit record;
        i int;
        g int;
        expected text;
        matches bool;
        placeholders bool := false;
        existing_writes bool := false;
        created bool[];
        to_write int := 0;
        first_pos bigint;
        req_base bigint[] := array_fill(0::bigint, ARRAY[n]);
      BEGIN
        -- 1. Lock every stream row, in name order across the batch (batches cannot deadlock),
        --    and read its revision, in ONE statement: a stream that does not exist yet is
        --    inserted already at the revision its events will give it ("created"; removed again
        --    below unless they are written), an existing one is locked by the no-op update. A
        --    stream only checked (no events) is locked the same way until commit, so a writer to
        --    it waits for this batch. A new stream's revision reads as -1 (no stream).
        WITH locked AS (
          INSERT INTO es.streams AS s (stream, revision)
          SELECT u.s, u.c - 1 FROM unnest(p_streams, p_counts) AS u(s, c) ORDER BY u.s
          ON CONFLICT (stream) DO UPDATE SET revision = s.revision
          RETURNING s.stream, s.revision, (s.xmax = 0) AS inserted
        )
        SELECT array_agg(CASE WHEN l.inserted THEN -1 ELSE l.revision END ORDER BY u.ord), array_agg(l.inserted ORDER BY u.ord)
        INTO current_rev, created
        FROM unnest(p_streams) WITH ORDINALITY AS u(s, ord) JOIN locked l ON l.stream = u.s;

        -- 2. Idempotency, before the revision check (a repeat succeeds whatever it expected).
        --    p_ids (every event id, in p_events' order) probes the event-id index: "event_id =
        --    ANY(array)" is an index probe per id whatever the table's statistics say (a join on the
        --    jsonb elements was planned as a scan of the whole log once the statistics were older
        --    than the log).
        FOR hit IN
          SELECT (p_events->(r.ord::int - 1)->>'s')::int AS req, e.stream AS stored_in, e.event_id, e.global_position
          FROM es.events e
          JOIN unnest(p_ids) WITH ORDINALITY AS r(id, ord) ON r.id = e.event_id
          WHERE e.event_id = ANY(p_ids)
          ORDER BY r.ord
        LOOP
          g := p_groups[hit.req] + 1;
          IF hit.stored_in <> p_streams[hit.req] THEN
            IF group_outcome[g] = 'ok' THEN group_outcome[g] := 'dup'; group_detail[g] := hit.event_id::text; END IF;
          END IF;
          found_ids[hit.req] := found_ids[hit.req] + 1;
          found_example[hit.req] := coalesce(found_example[hit.req], hit.event_id);
          found_last_pos[hit.req] := hit.global_position;
        END LOOP;

        -- 3. Each request's verdict; a group takes its first refusal.
        FOR i IN 1..n LOOP
          g := p_groups[i] + 1;
          IF group_first[g] = 0 THEN group_first[g] := i; END IF;
          CONTINUE WHEN group_outcome[g] <> 'ok';
          IF found_ids[i] > 0 THEN
            IF found_ids[i] < p_counts[i] THEN
              group_outcome[g] := 'dup'; group_detail[g] := found_example[i]::text;
            END IF;
            CONTINUE;
          END IF;
          expected := p_expected[i];
          matches := CASE expected
            WHEN 'any' THEN true
            WHEN 'no_stream' THEN current_rev[i] = -1
            WHEN 'stream_exists' THEN current_rev[i] >= 0
            ELSE current_rev[i] = expected::bigint
          END;
          IF NOT matches THEN
            group_outcome[g] := 'wer';
            group_detail[g] := json_build_object('index', i - group_first[g], 'actual', current_rev[i])::text;
          END IF;
        END LOOP;
        FOR i IN 1..n LOOP
          writes[i] := group_outcome[p_groups[i] + 1] = 'ok' AND found_ids[i] = 0 AND p_counts[i] > 0;
          -- Positions are handed out in request order: request i's events start after req_base[i].
          req_base[i] := to_write;
          IF writes[i] THEN to_write := to_write + p_counts[i]; END IF;
          IF writes[i] AND NOT created[i] THEN existing_writes := true; END IF;
          IF created[i] AND NOT writes[i] THEN placeholders := true; END IF;
        END LOOP;

        -- 4. New revisions of the streams that existed (a created one has its revision already);
        --    the rows created for streams nothing was written to removed.
        IF existing_writes THEN
          UPDATE es.streams s SET revision = u.rev + u.c
          FROM unnest(p_streams, current_rev, p_counts, writes, created) AS u(stream, rev, c, w, fresh)
          WHERE u.w AND NOT u.fresh AND s.stream = u.stream;
        END IF;
        IF placeholders THEN
          DELETE FROM es.streams s
          USING unnest(p_streams, writes, created) AS u(stream, w, fresh)
          WHERE u.fresh AND NOT u.w AND s.stream = u.stream;
        END IF;

        -- 5. Global positions under the append lock, held until commit (see migration 0001).
        IF to_write > 0 THEN
          PERFORM pg_advisory_xact_lock(${APPEND_LOCK});
          first_pos := nextval('es.global_position');
          IF to_write > 1 THEN
            PERFORM setval('es.global_position', first_pos + to_write - 1);
          END IF;
          -- Each event's k (1-based index in its request) gives its revision and, with its
          -- request's base, its position: no window functions, one pass over the elements.
          INSERT INTO es.events (global_position, event_id, stream, revision, type, schema_version, data, metadata)
          SELECT first_pos + req_base[x.s] + x.k - 1,
                 x.id,
                 p_streams[x.s],
                 current_rev[x.s] + x.k,
                 x.type,
                 x.v,
                 coalesce(x.data, 'null'::jsonb),
                 coalesce(x.metadata, '{}'::jsonb)
          FROM jsonb_to_recordset(p_events) AS x(s int, k int, id uuid, type text, v int, data jsonb, metadata jsonb)
          WHERE writes[x.s];
        END IF;

        -- 6. One row per request, in request order (= the order positions were given out).
        FOR i IN 1..n LOOP
          g := p_groups[i] + 1;
          request_index := i - 1;
          outcome := group_outcome[g];
          detail := group_detail[g];
          next_expected_revision := NULL;
          last_position := NULL;
          IF outcome = 'ok' THEN
            IF found_ids[i] > 0 THEN
              outcome := 'repeat';
              next_expected_revision := current_rev[i];
              last_position := found_last_pos[i];
            ELSIF p_counts[i] = 0 THEN
              next_expected_revision := current_rev[i];
              last_position := coalesce((SELECT e.global_position FROM es.events e
                                         WHERE e.stream = p_streams[i] AND e.revision = current_rev[i]), 0);
            ELSE
              next_expected_revision := current_rev[i] + p_counts[i];
              last_position := first_pos + req_base[i] + p_counts[i] - 1;
            END IF;
          END IF;
          RETURN NEXT;
        END LOOP;
      END
      $fn$;
`;

/** Creates `es.append_batch`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SQL).execute(db);
}
