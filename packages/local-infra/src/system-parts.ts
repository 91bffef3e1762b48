/**
 * The system parts that no npm package ships: `redis-server` (for `npm start` and the test
 * suite), Chromium (for the browser tests), nginx (production's front door, optional) and
 * promtool (Prometheus' rule checker, for the tests of the alerting rules). When one is missing, the project installs it
 * itself where it can — Debian/Ubuntu's `apt-get` as root or with passwordless sudo, Homebrew on
 * macOS — and says so in one line; where it cannot, it stops before anything has started with one
 * message that names the part, the install command for the platform and the variable that points
 * elsewhere (REDIS_URL, CHROMIUM_PATH, PROMTOOL_PATH), so that two commands set up a fresh machine.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/** A system part the project needs and can install. */
export type SystemPart = 'redis-server' | 'chromium' | 'nginx' | 'promtool';

interface PartSpec {
  /** What the part is called in messages. */
  label: string;
  /** Debian/Ubuntu package. */
  apt: string;
  /** Homebrew arguments. */
  brew: string[];
  /** The variable that points elsewhere instead, or null when the part has none (nginx is looked up on PATH). */
  variable: 'REDIS_URL' | 'CHROMIUM_PATH' | 'PROMTOOL_PATH' | null;
  /** Commands looked up on PATH. */
  commands: string[];
  /** Absolute paths tried after PATH (macOS application bundles). */
  paths: string[];
}

const PARTS: Record<SystemPart, PartSpec> = {
  'redis-server': {
    label: 'redis-server (Redis)',
    apt: 'redis-server',
    brew: ['install', 'redis'],
    variable: 'REDIS_URL',
    commands: ['redis-server'],
    paths: ['/opt/homebrew/bin/redis-server', '/usr/local/bin/redis-server'],
  },
  chromium: {
    label: 'Chromium (for the browser tests)',
    apt: 'chromium',
    brew: ['install', '--cask', 'chromium'],
    variable: 'CHROMIUM_PATH',
    commands: ['chromium', 'chromium-browser'],
    paths: ['/usr/bin/chromium', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
  },
  // Production's front door (infra/nginx/sinilill.conf): the suite runs it where it can, so that
  // what passes the gateway is shown to pass nginx too; nginx-light is Debian's smallest build.
  nginx: {
    label: 'nginx (production\'s front door, for the gateway tests)',
    apt: 'nginx-light',
    brew: ['install', 'nginx'],
    variable: null,
    commands: ['nginx'],
    paths: ['/usr/sbin/nginx', '/opt/homebrew/bin/nginx', '/usr/local/bin/nginx'],
  },
  // The alerting rules (infra/prometheus/alerts.yml) are checked and unit-tested by promtool,
  // which Debian ships in the `prometheus` package and Homebrew in `prometheus` too.
  promtool: {
    label: 'promtool (Prometheus\' rule checker, for the tests of the alerting rules)',
    apt: 'prometheus',
    brew: ['install', 'prometheus'],
    variable: 'PROMTOOL_PATH',
    commands: ['promtool'],
    paths: ['/usr/bin/promtool', '/opt/homebrew/bin/promtool', '/usr/local/bin/promtool'],
  },
};

/** What the host offers for installing: the facts planInstall decides on. */
export interface InstallHost {
  platform: NodeJS.Platform;
  /** Running as uid 0. */
  root: boolean;
  /** `sudo -n true` succeeds (passwordless sudo). */
  passwordlessSudo: boolean;
  /** `apt-get` is on PATH. */
  aptGet: boolean;
  /** `brew` is on PATH. */
  brew: boolean;
}

/** How to install a part on a host: commands to run (in order), or why it cannot be done. */
export type InstallPlan =
  | { kind: 'run'; manager: 'apt-get' | 'brew'; steps: string[][]; retryAfter?: string[] }
  | { kind: 'manual'; message: string };

/** The install command a person would type on `platform` (for messages). */
export function installCommand(part: SystemPart, platform: NodeJS.Platform): string {
  const spec = PARTS[part];
  if (platform === 'darwin') return `brew ${spec.brew.join(' ')}`;
  return `sudo apt-get install -y ${spec.apt}`;
}

/** The one message given when a part is missing and cannot be installed here. */
export function missingMessage(part: SystemPart, platform: NodeJS.Platform, reason: string): string {
  const spec = PARTS[part];
  const install = `${spec.label} is needed and was not found, and ${reason}. Install it with \`${installCommand(part, platform)}\``;
  if (spec.variable === null) return `${install}.`;
  const elsewhere = { REDIS_URL: 'a Redis you already run.', CHROMIUM_PATH: 'a Chromium or Chrome binary.', PROMTOOL_PATH: 'a promtool binary.' };
  return `${install}, or set ${spec.variable} to ${elsewhere[spec.variable]}`;
}

/**
 * Decides how `part` gets installed on `host` (pure: the facts come in as arguments).
 * - Linux with apt-get, as root: `apt-get install`; with passwordless sudo: the same under sudo.
 *   When the install fails (a fresh machine has no package lists), `apt-get update` runs once and
 *   the install is tried again (`retryAfter`).
 * - macOS with Homebrew: `brew install`.
 * - Otherwise: a manual plan with the one message to stop on.
 */
export function planInstall(part: SystemPart, host: InstallHost): InstallPlan {
  const spec = PARTS[part];
  if (host.platform === 'linux' && host.aptGet && (host.root || host.passwordlessSudo)) {
    const sudo = host.root ? [] : ['sudo', '-n'];
    const env = ['env', 'DEBIAN_FRONTEND=noninteractive'];
    return {
      kind: 'run',
      manager: 'apt-get',
      steps: [[...sudo, ...env, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', spec.apt]],
      retryAfter: [...sudo, 'apt-get', 'update', '-qq'],
    };
  }
  if (host.platform === 'darwin' && host.brew) {
    return { kind: 'run', manager: 'brew', steps: [['brew', ...spec.brew]] };
  }
  const reason = host.platform === 'linux'
    ? host.aptGet ? 'installing it needs root or passwordless sudo' : 'this system has no apt-get'
    : host.platform === 'darwin' ? 'Homebrew is not installed' : `the project cannot install it on ${host.platform}`;
  return { kind: 'manual', message: missingMessage(part, host.platform, reason) };
}

function onPath(command: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : null;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where `part` is installed on this machine, or null. (CHROMIUM_PATH and PROMTOOL_PATH are the caller's business.) */
export function locateSystemPart(part: SystemPart): string | null {
  const spec = PARTS[part];
  for (const command of spec.commands) {
    const path = onPath(command);
    if (path) return path;
  }
  return spec.paths.find(executable) ?? null;
}

/** Reads the installing facts of this machine. */
export function currentHost(): InstallHost {
  const root = process.getuid?.() === 0;
  return {
    platform: process.platform,
    root,
    passwordlessSudo: !root && onPath('sudo') !== null && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
    aptGet: onPath('apt-get') !== null,
    brew: onPath('brew') !== null,
  };
}

/** A missing part that could not be installed: the message is the whole story. */
export class SystemPartMissing extends Error {
  override readonly name = 'SystemPartMissing';
}

/**
 * Makes sure `part` is on this machine, installing it when it can.
 * @returns the path of the part's executable.
 * @throws SystemPartMissing with the one message (part, install command, variable) when it is
 *   missing and cannot be installed, or the install ran but did not bring it.
 */
export function ensureSystemPart(part: SystemPart, log: (line: string) => void = console.log): string {
  const found = locateSystemPart(part);
  if (found) return found;
  const host = currentHost();
  const plan = planInstall(part, host);
  if (plan.kind === 'manual') throw new SystemPartMissing(plan.message);
  log(`${PARTS[part].label} was not found: installing it with ${plan.manager} (${plan.steps.map((s) => s.join(' ')).join('; ')})`);
  let failure = '';
  const runAll = (steps: string[][]) => steps.every((step) => {
    const result = spawnSync(step[0]!, step.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    failure = result.stderr?.trim() || String(result.error ?? '');
    return result.status === 0;
  });
  let ok = runAll(plan.steps);
  if (!ok && plan.retryAfter) ok = runAll([plan.retryAfter, ...plan.steps]);
  const installed = locateSystemPart(part);
  if (!ok || !installed) {
    throw new SystemPartMissing(missingMessage(part, host.platform, `${plan.manager} could not install it (${failure.split('\n').pop() || 'no output'})`));
  }
  return installed;
}
