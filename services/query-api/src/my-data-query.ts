/**
 * Reads of the event log for "my data": which streams name one person, and their events page by
 * page, through the protected store's filtered reads (EventStore.readEvents, either engine), so
 * the download reads exactly what the log holds for them (erased fields null, as everywhere).
 *
 * The person's streams: their account (`user-{id}`) and participants (`participant-{id}`, one per
 * edition they took part in); every
 * entry stream whose EntryAdded or EntryEdited named them; every payment order they placed
 * (PaymentOrdered) and every activity file they used (ActivityFileUsed).
 * Of the streams that are not their own, only the events whose data names them as
 * `participantId` are theirs: an entry moved to a teammate, or a file a teammate used later, shows
 * only its part about them. A company fee a teammate ordered for them is not theirs: their own
 * ParticipantPaymentMarked names the order.
 */
import { streams } from '@sinilill/domain';
import type { EventStore, RecordedEvent } from '@sinilill/event-store';

/** Event types of other streams that name the person who placed or logged them (`participantId`). */
const NAMING_TYPES = ['PaymentOrdered', 'ActivityFileUsed'] as const;

/** Whose data: the account, and its participant (null for an account without one). */
export interface Person {
  userId: string;
  participantId: number | null;
  /**
   * Every participant of the account, one per edition the person took part in
   * (AccountState.participantIds); default: `participantId` alone. The download covers them all.
   */
  participantIds?: readonly number[];
}

/** The person's participant ids: every edition's (see Person). */
function participantsOf(person: Person): readonly number[] {
  return person.participantIds ?? (person.participantId !== null ? [person.participantId] : []);
}

/** The streams that hold the person's events (see the module's comment). */
export interface PersonStreams {
  own: string[];
  others: string[];
}

/** Reads one person's events from the log (see the module's comment). */
export class MyDataReader {
  constructor(private readonly store: EventStore) {}

  /** The streams that name `person`, up to position `until`. One filtered read of the log. */
  async streamsOf(person: Person, until: number): Promise<PersonStreams> {
    const own = [streams.user(person.userId)];
    const participantIds = participantsOf(person);
    if (participantIds.length === 0) return { own, others: [] };
    own.push(...participantIds.map((participantId) => streams.participant(participantId)));
    const naming = await this.store.readEvents({
      types: ['EntryAdded', 'EntryEdited', ...NAMING_TYPES],
      data: [{ field: 'participantId', values: [...participantIds] }],
      until,
    });
    return { own, others: [...new Set(naming.map((event) => event.stream))].sort() };
  }

  /**
   * The person's events of `found` with a global position in (`after`, `until`], ascending, at
   * most `limit` read (fewer may be answered: events of other streams that do not name the person
   * are left out), decrypted. `next` is the position to continue after, null at the end.
   */
  async page(person: Person, found: PersonStreams, after: number, until: number, limit: number): Promise<{ events: RecordedEvent[]; next: number | null }> {
    const names = [...found.own, ...found.others];
    const read = await this.store.readEvents({ streams: names, after, until }, { maxCount: limit });
    const own = new Set(found.own);
    const participantIds = new Set(participantsOf(person));
    const events = read.filter((event) => own.has(event.stream) || namesParticipant(event, participantIds));
    return { events, next: read.length < limit ? null : read.at(-1)!.globalPosition };
  }

  /**
   * Every event of the person up to `until`, in global order, `batch` read at a time: a long
   * history never sits in memory whole.
   */
  async *all(person: Person, found: PersonStreams, until: number, batch = 500): AsyncGenerator<RecordedEvent> {
    let after: number | null = 0;
    while (after !== null) {
      const page: { events: RecordedEvent[]; next: number | null } = await this.page(person, found, after, until, batch);
      yield* page.events;
      after = page.next;
    }
  }
}

/** Whether the event's data names one of the participants (`participantId`). */
function namesParticipant(event: RecordedEvent, participantIds: ReadonlySet<number>): boolean {
  const data = event.data as { participantId?: unknown } | null;
  return typeof data === 'object' && data !== null && typeof data.participantId === 'number' && participantIds.has(data.participantId);
}
