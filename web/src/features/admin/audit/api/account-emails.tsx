/**
 * The e-mails of the live accounts by user id, so the history names its actors ("a
 * timeline … showing actor"): read once per visit of the history tab from GET
 * /api/admin/userdata. An erased or unknown account is absent, and the actor then shows as its
 * user id; a failed read only costs the names.
 */
import { createContext, useContext } from 'react';
import { useFetched } from '../../../../lib/use-fetched';
import { getUsers } from '../../api/get-admin-data';

const AccountEmailsContext = createContext<ReadonlyMap<string, string>>(new Map());

/** Provides the e-mails to the ActorText below it. */
export const AccountEmailsProvider = AccountEmailsContext.Provider;

const NO_EMAILS: ReadonlyMap<string, string> = new Map();

/** GET /api/admin/userdata as a map from user id to e-mail (erased accounts left out). */
async function accountEmails(signal: AbortSignal): Promise<ReadonlyMap<string, string>> {
  const { users } = await getUsers({ signal });
  return new Map(users.flatMap((u) => (u.email ? [[u.id, u.email] as const] : [])));
}

/** Loads the e-mails by user id (empty until the answer arrives, and after a failure). */
export function useLoadAccountEmails(): ReadonlyMap<string, string> {
  const fetched = useFetched(accountEmails);
  return fetched.status === 'ready' ? fetched.data : NO_EMAILS;
}

/** The e-mail of user `userId`, or undefined. */
export function useAccountEmail(userId: string | null): string | undefined {
  const emails = useContext(AccountEmailsContext);
  return userId === null ? undefined : emails.get(userId);
}
