/**
 * The e-mails of the live accounts by user id, so the history names its actors (issue 6: "a
 * timeline … showing actor"): read once per visit of the history tab from GET
 * /api/admin/userdata. An erased or unknown account is absent, and the actor then shows as its
 * user id; a failed read only costs the names.
 */
import { createContext, useContext, useEffect, useState } from 'react';
import { getUsers } from '../../api/get-admin-data';

const AccountEmailsContext = createContext<ReadonlyMap<string, string>>(new Map());

/** Provides the e-mails to the ActorText below it. */
export const AccountEmailsProvider = AccountEmailsContext.Provider;

/** Loads the e-mails by user id (empty until the answer arrives, and after a failure). */
export function useLoadAccountEmails(): ReadonlyMap<string, string> {
  const [emails, setEmails] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    const controller = new AbortController();
    getUsers({ signal: controller.signal })
      .then(({ users }) => setEmails(new Map(users.flatMap((u) => (u.email ? [[u.id, u.email] as const] : [])))))
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return emails;
}

/** The e-mail of user `userId`, or undefined. */
export function useAccountEmail(userId: string | null): string | undefined {
  const emails = useContext(AccountEmailsContext);
  return userId === null ? undefined : emails.get(userId);
}
