/**
 * The events of streams `announcement-{id}` and `newsletter-{participantId}` (appended by the
 * command API's announcements; no decider of their own). The union of all events and their
 * registry are in ../events.ts.
 */

/**
 * An administrator sent an announcement: the text in both languages (plain text, paragraphs
 * separated by blank lines) and its audience — `newsletter` (participants who opted in and have
 * not unsubscribed) or `all` (operational notices: every participant). Recipients are chosen and
 * erased people skipped when each mail is sent, not here.
 */
export interface AnnouncementPublished {
  type: 'AnnouncementPublished';
  data: {
    /** UUID. */
    announcementId: string;
    subject_et: string;
    body_et: string;
    subject_en: string;
    body_en: string;
    audience: 'newsletter' | 'all';
    /** The administrator's userId. */
    publishedBy: string | null;
    /** ISO-8601 UTC. */
    publishedAt: string;
  };
}
/** A participant followed an announcement's unsubscribe link: no more newsletter mails. */
export interface NewsletterUnsubscribed {
  type: 'NewsletterUnsubscribed';
  data: { participantId: number; unsubscribedAt: string };
}
export type AnnouncementEvent = AnnouncementPublished | NewsletterUnsubscribed;
