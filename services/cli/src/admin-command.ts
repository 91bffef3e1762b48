/**
 * The CLI's `admin` (`npm run admin -- add EMAIL`, `remove EMAIL`, `list`): makes the account of an
 * address an administrator, a participant again, or lists the administrators. `add` appends what
 * ADMIN_EMAIL's bootstrap does for an existing account (UserRoleChanged to ADMIN, and UserApproved
 * if needed; the password stays the owner's), through AccountService.setRoleOfEmail on the one
 * write path. It works while the app runs (the embedded PostgreSQL of DATA_DIR is reused, as
 * `import` and `replay` do; the projector is woken through Redis when it answers) and starts the
 * database when it does not. The role is in the next login's token: the person logs in again.
 */
import type { Kysely } from 'kysely';
import { AccountService, type AccountServiceDependencies } from '@sinilill/commands';
import { createClock, loadConfig } from '@sinilill/config';
import { WakeUpPublisher } from '@sinilill/messaging';
import type { ReadModelDatabase } from '@sinilill/read-models';
import { openApplication, type Application } from './application';
import { openInfrastructure } from './infra';

const USAGE = 'usage: npm run admin -- add <email> | remove <email> | list';

/** The admin tool never mails (a role change sends nothing). */
const NO_MAIL: AccountServiceDependencies['mailer'] = {
  send: async () => {
    throw new Error('the admin tool sends no mail');
  },
  close: () => undefined,
};

/** What one `admin` run needs: the accounts, the read models (list) and a line printer. */
export interface AdminToolContext {
  accounts: AccountService;
  db: Kysely<ReadModelDatabase>;
  log: (line: string) => void;
}

/**
 * Runs `admin` with its arguments (after the command's name): the lines it prints tell what was
 * done; the position of the appended events, if any, is answered (for waking the projector).
 * @throws Error with the usage for unknown arguments; DomainError('NOT_FOUND') for an address
 *   without an account.
 */
export async function adminTool(args: readonly string[], { accounts, db, log }: AdminToolContext): Promise<number | null> {
  const [action, email, ...rest] = args;
  if (action === 'list' && email === undefined) {
    const rows = await db.withSchema('rm').selectFrom('admin_users').select(['email']).where('role', '=', 'ADMIN').orderBy('email').execute();
    for (const row of rows) log(row.email ?? '(erased)');
    log(`${rows.length} administrator${rows.length === 1 ? '' : 's'} (as the read models show them)`);
    return null;
  }
  if ((action !== 'add' && action !== 'remove') || !email || rest.length > 0) throw new Error(USAGE);
  const role = action === 'add' ? 'ADMIN' : 'USER';
  const result = await accounts.setRoleOfEmail(email.trim(), role);
  log(result.changed
    ? `${email}: ${role === 'ADMIN' ? 'now an administrator' : 'no longer an administrator'} (log position ${result.position}); they log in again to use it`
    : `${email}: already ${role === 'ADMIN' ? 'an administrator' : 'not an administrator'}; nothing changed`);
  return result.changed ? result.position : null;
}

/** `npm run admin -- …` (see the module comment). */
export async function runAdmin(args: readonly string[]): Promise<void> {
  const config = loadConfig();
  const log = (line: string) => console.log(line);
  const infra = await openInfrastructure(config, { redis: 'optional', log });
  let app: Application | null = null;
  const publisher = infra.redisUrl ? new WakeUpPublisher({ redisUrl: infra.redisUrl, prefix: config.queuePrefix }) : null;
  try {
    app = await openApplication(config, infra.databaseUrl);
    const clock = createClock(config);
    const accounts = new AccountService({
      store: app.store, ids: app.ids, directory: app.directory, mailer: NO_MAIL, publicUrl: config.publicUrl, now: () => clock.now(),
    });
    const position = await adminTool(args, { accounts, db: app.db, log });
    if (position !== null) await publisher?.wake(position);
  } finally {
    await publisher?.close();
    await app?.close();
    await infra.stop();
  }
}
