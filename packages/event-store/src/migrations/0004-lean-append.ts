/**
 * Event store migration 0004: `es.append_batch` made lean, same signature, same answers
 * (migration 0002 documents the parameters and the result rows; docs/decisions/0104).
 *
 * Where 0002's version spent its time (perf on the backend, 1 writer and the bulk import):
 * - a lone append of one stream paid for the set-based plan of a batch (a sort, a hash join and
 *   an aggregate to lock one row, a sort and a join to probe one id, a second UPDATE of the stream
 *   row) and for initialising some sixty plpgsql expressions: about four times a plain INSERT's
 *   server time. A batch of one request now takes a path of single-row statements;
 * - a batch of 5 000 requests read `p_streams[i]` and `p_expected[i]` once per row: a text array
 *   is walked from its start on every subscript, so those reads were quadratic in the batch.
 *   Text arrays are now only unnested (joined on their ordinality); subscripts only touch
 *   fixed-width arrays, which are indexed directly;
 * - the stream rows were locked in the database's collation order (strcoll per comparison) and
 *   then written twice (a no-op update to lock, an update of the revision): the order is now
 *   bytewise (COLLATE "C": any fixed order keeps batches from deadlocking) and the lock writes the
 *   new revision at once; a refused or repeated request puts its row back (rare).
 *
 * Unchanged: the checks and their order (stream locks, then the repeat probe by event id, then
 * the expected revisions), each group answered on its own, and global positions allocated under
 * APPEND_LOCK held until commit (migration 0001), so readers never skip a position.
 *
 * Never edit it once applied; change the function in a new migration.
 */
import { sql, type Kysely } from 'kysely';
import { APPEND_LOCK } from './0001-event-log';

/**
 * Up to this many requests a batch's per-request steps run as plpgsql loops (each statement is
 * planned again on every call, which costs more than a short loop); above it, as single
 * statements over the unnested arrays (a loop would subscript text arrays, quadratic in the batch).
 */
const SMALL_BATCH = 64;

const SQL = /* sql */ `
      CREATE OR REPLACE FUNCTION es.append_batch(p_groups int[], p_streams text[], p_expected text[], p_counts int[], p_events jsonb, p_ids uuid[])
      RETURNS TABLE (request_index int, outcome text, next_expected_revision bigint, last_position bigint, detail text)
      LANGUAGE plpgsql
      -- Every statement below is an index probe or a scan of the arguments: never the whole log.
      SET enable_seqscan = off
      AS $fn$
      DECLARE
        n int := cardinality(p_streams);
        -- one request
        v_stream text;
        v_count int;
        v_rev bigint;
        v_fresh bool;
        v_outcome text := 'ok';
        v_detail text;
        v_found int := 0;
        v_first_ord int;
        v_last_ord int := 0;
        v_last_pos bigint := 0;
        v_other_ord int;
        v_other_id uuid;
        v_example uuid;
        -- a batch
        groups int;
        current_rev bigint[];
        created bool[];
        matches bool[];
        found_ids int[];
        found_first int[];
        found_last_pos bigint[];
        group_code int[];
        group_detail text[];
        group_first int[];
        writes bool[];
        req_base bigint[];
        hit record;
        i int;
        g int;
        to_write int := 0;
        undo bool := false;
        first_pos bigint;
      BEGIN
        IF n = 1 THEN
          v_stream := p_streams[1];
          v_count := p_counts[1];
          -- 1. Lock the stream row and give it the revision the events will give it, in one
          --    statement; a new stream's row is inserted (its revision before: -1).
          INSERT INTO es.streams AS s (stream, revision) VALUES (v_stream, v_count - 1)
          ON CONFLICT (stream) DO UPDATE SET revision = s.revision + v_count
          RETURNING s.revision, (s.xmax = 0) INTO v_rev, v_fresh;
          v_rev := CASE WHEN v_fresh THEN -1 ELSE v_rev - v_count END;

          -- 2. Repeat probe: the first id (in request order) stored in another stream, the first
          --    found at all, and the position of the last found. One id is probed by equality:
          --    that plan is cached, where "= ANY(array)" is planned again on every call.
          IF v_count = 1 THEN
            SELECT e.stream, e.global_position INTO v_detail, v_last_pos FROM es.events e WHERE e.event_id = p_ids[1];
            IF FOUND THEN
              v_found := 1;
              IF v_detail <> v_stream THEN v_other_id := p_ids[1]; END IF;
              v_detail := NULL;
            END IF;
          ELSIF v_count > 1 THEN
            FOR hit IN
              SELECT e.stream AS stored_in, e.event_id, e.global_position, array_position(p_ids, e.event_id) AS ord
              FROM es.events e WHERE e.event_id = ANY(p_ids)
            LOOP
              v_found := v_found + 1;
              IF hit.stored_in <> v_stream AND (v_other_ord IS NULL OR hit.ord < v_other_ord) THEN
                v_other_ord := hit.ord; v_other_id := hit.event_id;
              END IF;
              IF v_first_ord IS NULL OR hit.ord < v_first_ord THEN v_first_ord := hit.ord; v_example := hit.event_id; END IF;
              IF hit.ord > v_last_ord THEN v_last_ord := hit.ord; v_last_pos := hit.global_position; END IF;
            END LOOP;
          END IF;

          -- 3. The verdict: stored elsewhere or partly stored (dup), all stored (repeat), else
          --    the expected revision (KurrentDB semantics; -1 = the stream does not exist).
          IF v_other_id IS NOT NULL THEN
            v_outcome := 'dup'; v_detail := v_other_id::text;
          ELSIF v_found > 0 AND v_found < v_count THEN
            v_outcome := 'dup'; v_detail := v_example::text;
          ELSIF v_found > 0 THEN
            v_outcome := 'repeat';
          ELSIF NOT (CASE p_expected[1]
              WHEN 'any' THEN true
              WHEN 'no_stream' THEN v_rev = -1
              WHEN 'stream_exists' THEN v_rev >= 0
              ELSE v_rev = p_expected[1]::bigint
            END) THEN
            v_outcome := 'wer'; v_detail := json_build_object('index', 0, 'actual', v_rev)::text;
          END IF;

          request_index := 0;
          outcome := v_outcome;
          detail := v_detail;
          next_expected_revision := NULL;
          last_position := NULL;
          IF v_outcome = 'ok' AND v_count > 0 THEN
            -- 4. Global positions under the append lock, held until commit (migration 0001).
            PERFORM pg_advisory_xact_lock(${APPEND_LOCK});
            first_pos := nextval('es.global_position');
            IF v_count > 1 THEN
              PERFORM setval('es.global_position', first_pos + v_count - 1);
            END IF;
            INSERT INTO es.events (global_position, event_id, stream, revision, type, schema_version, data, metadata)
            SELECT first_pos + x.k - 1, x.id, v_stream, v_rev + x.k, x.type, x.v,
                   coalesce(x.data, 'null'::jsonb), coalesce(x.metadata, '{}'::jsonb)
            FROM jsonb_to_recordset(p_events) AS x(k int, id uuid, type text, v int, data jsonb, metadata jsonb);
            next_expected_revision := v_rev + v_count;
            last_position := first_pos + v_count - 1;
          ELSE
            -- Nothing written: the row goes back to what it was (a new stream's row goes away).
            IF v_fresh THEN
              DELETE FROM es.streams s WHERE s.stream = v_stream;
            ELSIF v_count > 0 THEN
              UPDATE es.streams s SET revision = v_rev WHERE s.stream = v_stream;
            END IF;
            IF v_outcome = 'repeat' THEN
              next_expected_revision := v_rev;
              last_position := v_last_pos;
            ELSIF v_outcome = 'ok' THEN
              next_expected_revision := v_rev;
              last_position := coalesce((SELECT e.global_position FROM es.events e
                                         WHERE e.stream = v_stream AND e.revision = v_rev), 0);
            END IF;
          END IF;
          RETURN NEXT;
          RETURN;
        END IF;

        -- A batch (several requests). Requests of a group are contiguous; group g+1 of p_groups.
        groups := coalesce(p_groups[n], -1) + 1;
        found_ids := array_fill(0, ARRAY[n]);
        found_first := array_fill(0, ARRAY[n]);
        found_last_pos := array_fill(0::bigint, ARRAY[n]);
        group_code := array_fill(0, ARRAY[groups]);  -- 0 ok, 1 wer, 2 dup
        group_detail := array_fill(NULL::text, ARRAY[groups]);
        group_first := array_fill(0, ARRAY[groups]);
        writes := array_fill(false, ARRAY[n]);
        req_base := array_fill(0::bigint, ARRAY[n]);

        -- 1. Lock every stream row, in bytewise name order across the batch (batches cannot
        --    deadlock), giving it the revision its events will give it, and read the revision
        --    before, in ONE statement. A new stream's revision before reads as -1.
        WITH locked AS (
          INSERT INTO es.streams AS s (stream, revision)
          SELECT u.s, u.c - 1 FROM unnest(p_streams, p_counts) AS u(s, c) ORDER BY u.s COLLATE "C"
          ON CONFLICT (stream) DO UPDATE SET revision = s.revision + excluded.revision + 1
          RETURNING s.stream, s.revision, (s.xmax = 0) AS inserted
        )
        SELECT array_agg(CASE WHEN l.inserted THEN -1 ELSE l.revision - u.c END ORDER BY u.ord), array_agg(l.inserted ORDER BY u.ord)
        INTO current_rev, created
        FROM unnest(p_streams, p_counts) WITH ORDINALITY AS u(s, c, ord) JOIN locked l ON l.stream = u.s;

        -- 2. Idempotency, before the revision check (a repeat succeeds whatever it expected).
        --    "event_id = ANY(p_ids)" is an index probe per id whatever the statistics say; the
        --    hits are few (none but on a repeat), so the join back to their requests is cheap.
        --    A hit's request stream is joined in (a repeated import batch is all hits, and
        --    p_streams[req] would walk the text array for each).
        FOR hit IN
          SELECT (p_events->(r.ord::int - 1)->>'s')::int AS req, e.stream <> u.s AS elsewhere, e.event_id, e.global_position, r.ord::int AS ord
          FROM es.events e
          JOIN unnest(p_ids) WITH ORDINALITY AS r(id, ord) ON r.id = e.event_id
          JOIN unnest(p_streams) WITH ORDINALITY AS u(s, ord) ON u.ord = (p_events->(r.ord::int - 1)->>'s')::int
          WHERE e.event_id = ANY(p_ids)
          ORDER BY r.ord
        LOOP
          g := p_groups[hit.req] + 1;
          IF hit.elsewhere AND group_code[g] = 0 THEN group_code[g] := 2; group_detail[g] := hit.event_id::text; END IF;
          found_ids[hit.req] := found_ids[hit.req] + 1;
          IF found_first[hit.req] = 0 THEN found_first[hit.req] := hit.ord; END IF;
          found_last_pos[hit.req] := hit.global_position;
        END LOOP;

        -- 3. Each request's expected revision against its stream's: in one statement for a large
        --    batch (p_expected[i] would walk the text array from its start for every i), in a
        --    loop for a small one (a statement is planned on every call).
        IF n > ${SMALL_BATCH} THEN
          SELECT array_agg(CASE u.e
                   WHEN 'any' THEN true
                   WHEN 'no_stream' THEN u.r = -1
                   WHEN 'stream_exists' THEN u.r >= 0
                   ELSE u.r = u.e::bigint
                 END ORDER BY u.ord)
          INTO matches
          FROM unnest(p_expected, current_rev) WITH ORDINALITY AS u(e, r, ord);
        ELSE
          matches := array_fill(false, ARRAY[n]);
          FOR i IN 1..n LOOP
            matches[i] := CASE p_expected[i]
              WHEN 'any' THEN true
              WHEN 'no_stream' THEN current_rev[i] = -1
              WHEN 'stream_exists' THEN current_rev[i] >= 0
              ELSE current_rev[i] = p_expected[i]::bigint
            END;
          END LOOP;
        END IF;

        -- Each group takes its first refusal.
        FOR i IN 1..n LOOP
          g := p_groups[i] + 1;
          IF group_first[g] = 0 THEN group_first[g] := i; END IF;
          CONTINUE WHEN group_code[g] <> 0;
          IF found_ids[i] > 0 THEN
            IF found_ids[i] < p_counts[i] THEN
              group_code[g] := 2; group_detail[g] := p_ids[found_first[i]]::text;
            END IF;
            CONTINUE;
          END IF;
          IF NOT matches[i] THEN
            group_code[g] := 1;
            group_detail[g] := json_build_object('index', i - group_first[g], 'actual', current_rev[i])::text;
          END IF;
        END LOOP;
        FOR i IN 1..n LOOP
          writes[i] := group_code[p_groups[i] + 1] = 0 AND found_ids[i] = 0 AND p_counts[i] > 0;
          -- Positions are handed out in request order: request i's events start after req_base[i].
          req_base[i] := to_write;
          IF writes[i] THEN
            to_write := to_write + p_counts[i];
          ELSIF created[i] OR p_counts[i] > 0 THEN
            undo := true;
          END IF;
        END LOOP;

        -- 4. The rows of requests that write nothing go back to what they were: a new stream's
        --    row goes away, an existing one gets its revision back.
        IF undo THEN
          DELETE FROM es.streams s
          USING unnest(p_streams, writes, created) AS u(stream, w, fresh)
          WHERE u.fresh AND NOT u.w AND s.stream = u.stream;
          UPDATE es.streams s SET revision = u.rev
          FROM unnest(p_streams, current_rev, p_counts, writes, created) AS u(stream, rev, c, w, fresh)
          WHERE NOT u.w AND NOT u.fresh AND u.c > 0 AND s.stream = u.stream;
        END IF;

        -- 5. Global positions under the append lock, held until commit (migration 0001).
        IF to_write > 0 THEN
          PERFORM pg_advisory_xact_lock(${APPEND_LOCK});
          first_pos := nextval('es.global_position');
          IF to_write > 1 THEN
            PERFORM setval('es.global_position', first_pos + to_write - 1);
          END IF;
          -- Each event's k (1-based index in its request) gives its revision and, with its
          -- request's base, its position. Its request's stream: by subscript in a small batch, by
          -- a join in a large one (as in step 3).
          IF n <= ${SMALL_BATCH} THEN
            INSERT INTO es.events (global_position, event_id, stream, revision, type, schema_version, data, metadata)
            SELECT first_pos + req_base[x.s] + x.k - 1, x.id, p_streams[x.s], current_rev[x.s] + x.k, x.type, x.v,
                   coalesce(x.data, 'null'::jsonb), coalesce(x.metadata, '{}'::jsonb)
            FROM jsonb_to_recordset(p_events) AS x(s int, k int, id uuid, type text, v int, data jsonb, metadata jsonb)
            WHERE writes[x.s];
          ELSE
            INSERT INTO es.events (global_position, event_id, stream, revision, type, schema_version, data, metadata)
            SELECT first_pos + u.base + x.k - 1, x.id, u.stream, u.rev + x.k, x.type, x.v,
                   coalesce(x.data, 'null'::jsonb), coalesce(x.metadata, '{}'::jsonb)
            FROM jsonb_to_recordset(p_events) AS x(s int, k int, id uuid, type text, v int, data jsonb, metadata jsonb)
            JOIN unnest(p_streams, current_rev, req_base, writes) WITH ORDINALITY AS u(stream, rev, base, w, ord) ON u.ord = x.s
            WHERE u.w;
          END IF;
        END IF;

        -- 6. One row per request, in request order (= the order positions were given out): in a
        --    loop for a small batch, in one statement for a large one (as in step 3).
        IF n <= ${SMALL_BATCH} THEN
          FOR i IN 1..n LOOP
            g := p_groups[i] + 1;
            request_index := i - 1;
            next_expected_revision := NULL;
            last_position := NULL;
            detail := NULL;
            IF group_code[g] <> 0 THEN
              outcome := CASE group_code[g] WHEN 1 THEN 'wer' ELSE 'dup' END;
              detail := group_detail[g];
            ELSIF found_ids[i] > 0 THEN
              outcome := 'repeat';
              next_expected_revision := current_rev[i];
              last_position := found_last_pos[i];
            ELSE
              outcome := 'ok';
              next_expected_revision := current_rev[i] + p_counts[i];
              IF p_counts[i] = 0 THEN
                last_position := coalesce((SELECT e.global_position FROM es.events e
                                           WHERE e.stream = p_streams[i] AND e.revision = current_rev[i]), 0);
              ELSE
                last_position := first_pos + req_base[i] + p_counts[i] - 1;
              END IF;
            END IF;
            RETURN NEXT;
          END LOOP;
          RETURN;
        END IF;
        RETURN QUERY
          SELECT (u.ord - 1)::int,
                 CASE u.code WHEN 1 THEN 'wer' WHEN 2 THEN 'dup' ELSE CASE WHEN u.found > 0 THEN 'repeat' ELSE 'ok' END END,
                 CASE WHEN u.code <> 0 THEN NULL
                      WHEN u.found > 0 OR u.c = 0 THEN u.rev
                      ELSE u.rev + u.c END,
                 CASE WHEN u.code <> 0 THEN NULL
                      WHEN u.found > 0 THEN u.last_pos
                      WHEN u.c = 0 THEN coalesce((SELECT e.global_position FROM es.events e WHERE e.stream = u.stream AND e.revision = u.rev), 0)
                      ELSE first_pos + u.base + u.c - 1 END,
                 CASE WHEN u.code <> 0 THEN group_detail[u.g + 1] END
          FROM (
            SELECT x.*, group_code[x.g + 1] AS code
            FROM unnest(p_streams, p_counts, current_rev, found_ids, found_last_pos, req_base, p_groups)
              WITH ORDINALITY AS x(stream, c, rev, found, last_pos, base, g, ord)
          ) u
          ORDER BY u.ord;
      END
      $fn$;
`;

/** Replaces `es.append_batch` (same signature and answers). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SQL).execute(db);
}
