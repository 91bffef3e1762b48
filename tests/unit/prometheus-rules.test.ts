/**
 * The alerting rules (infra/prometheus/alerts.yml) as Prometheus reads them, through promtool:
 * `promtool check rules`, the rules' unit tests (`promtool test rules` on alerts.test.yml and
 * alerts-season.test.yml) and `promtool check config` on both Prometheus configurations, which
 * load the rules. Then what promtool does not know: every alert has a severity, a summary, a
 * description and a runbook paragraph in the operator's guide (infra/README.md), is tested firing
 * and not firing, and reads only metrics the services register.
 *
 * promtool comes from Debian's `prometheus` package (or Homebrew's); `npm test`'s first step
 * installs it when missing (tests/support/ensure-system.ts). PROMTOOL_PATH names another one.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { withAppendMetrics } from '@sinilill/command-api';
import { repoRoot } from '@sinilill/config';
import { HTTP_REQUEST_DURATION, Registry, registerPoolMetrics } from '@sinilill/http';
import { locateSystemPart } from '@sinilill/local-infra';
import { registerOpsMetrics, registerProjectorMetrics } from '@sinilill/projector';

const dir = join(repoRoot, 'infra', 'prometheus');
const promtool = process.env.PROMTOOL_PATH || locateSystemPart('promtool');

/** Runs promtool in infra/prometheus (the rule files' paths are relative to it). */
function runPromtool(...args: string[]): { status: number | null; output: string } {
  if (!promtool) {
    throw new Error('promtool is needed for these tests and was not found: install Debian\'s `prometheus` package ' +
      '(`npm test` does it when it can), or set PROMTOOL_PATH to a promtool binary.');
  }
  const result = spawnSync(promtool, args, { cwd: dir, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface RuleTest {
  alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[];
}

const rules = (parse(readFileSync(join(dir, 'alerts.yml'), 'utf8')) as { groups: { name: string; rules: AlertRule[] }[] })
  .groups.flatMap((group) => group.rules);
const testFiles = ['alerts.test.yml', 'alerts-season.test.yml'];
const ruleTests = testFiles.flatMap((file) => (parse(readFileSync(join(dir, file), 'utf8')) as { tests: RuleTest[] }).tests);

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
}

/** The metric names a PromQL expression reads (functions, keywords, labels, ranges and numbers left out). */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\boffset\s+\w+/g, '');
  const keywords = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'offset', 'and', 'or', 'unless']);
  return [...bare.matchAll(/\b[a-zA-Z_:][a-zA-Z0-9_:]*\b(?!\s*\()/g)].map((m) => m[0]).filter((word) => !keywords.has(word));
}

/**
 * The names of the series the services export, from their own registrations (nothing is
 * collected: the readers below are never called).
 */
function exportedSeries(): Set<string> {
  const registry = new Registry();
  const never = () => { throw new Error('not read in this test'); };
  const queue = { name: 'q', getJobCounts: never, getActive: never, getFailed: never, getCompleted: never } as never;
  registerProjectorMetrics(registry, { pool: {} as never, log: {} as never, projections: [], queues: [], replayQueue: queue });
  registerOpsMetrics(registry, { pool: { query: never } as never, parked: never, queues: [], redis: { info: never, get: never } as never });
  registerPoolMetrics(registry, {});
  withAppendMetrics({} as never, registry);
  const names = registry.getMetricsAsArray().map((metric) => metric.name);
  const histograms = [HTTP_REQUEST_DURATION, ...registry.getMetricsAsArray().filter((m) => m.constructor.name === 'Histogram').map((m) => m.name)];
  return new Set([...names, ...histograms.flatMap((name) => ['bucket', 'sum', 'count'].map((suffix) => `${name}_${suffix}`))]);
}

describe('infra/prometheus/alerts.yml through promtool', () => {
  it('passes `promtool check rules`, which counts every alert', () => {
    const { status, output } = runPromtool('check', 'rules', 'alerts.yml');
    expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(status, output).toBe(0);
  });

  it('passes its unit tests (`promtool test rules`)', { timeout: 300_000 }, () => {
    const { status, output } = runPromtool('test', 'rules', ...testFiles);
    expect(output.match(/SUCCESS/g), output).toHaveLength(testFiles.length);
    expect(status, output).toBe(0);
  });

  it('is loaded by prometheus.yml, which passes `promtool check config`', () => {
    const config = parse(readFileSync(join(dir, 'prometheus.yml'), 'utf8')) as { rule_files?: string[] };
    expect(config.rule_files).toEqual(['alerts.yml']);
    const { status, output } = runPromtool('check', 'config', 'prometheus.yml');
    expect(output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(status, output).toBe(0);
  });

  // Debian builds promtool without Kubernetes' service discovery, so `check config` refuses
  // kubernetes.yml's kubernetes_sd_configs there; its rules are the same file checked above.
  it('is loaded by kubernetes.yml too', () => {
    const config = parse(readFileSync(join(dir, 'kubernetes.yml'), 'utf8')) as { rule_files?: string[] };
    expect(config.rule_files).toEqual(['alerts.yml']);
  });
});

describe('each alert of infra/prometheus/alerts.yml', () => {
  const guide = readFileSync(join(repoRoot, 'infra', 'README.md'), 'utf8');
  const anchors = new Set([...guide.matchAll(/^#{2,4} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
  const exported = exportedSeries();

  it.each(rules.map((rule) => [rule.alert, rule] as const))('%s: severity, summary, description and a runbook paragraph', (name, rule) => {
    expect(['critical', 'warning']).toContain(rule.labels?.severity);
    expect(rule.annotations?.summary?.length).toBeGreaterThan(10);
    expect(rule.annotations?.description?.length).toBeGreaterThan(rule.annotations!.summary!.length);
    const runbook = rule.annotations?.runbook_url ?? '';
    expect(runbook).toBe(`infra/README.md#${name.toLowerCase()}`);
    expect(anchors.has(name.toLowerCase()), `infra/README.md has a heading "${name}"`).toBe(true);
  });

  it.each(rules.map((rule) => [rule.alert, rule] as const))('%s: tested firing and not firing', (name) => {
    const cases = ruleTests.flatMap((test) => test.alert_rule_test ?? []).filter((test) => test.alertname === name);
    expect(cases.some((test) => (test.exp_alerts ?? []).length > 0), 'a case where it fires').toBe(true);
    expect(cases.some((test) => (test.exp_alerts ?? []).length === 0), 'a case where it does not').toBe(true);
  });

  it.each(rules.map((rule) => [rule.alert, rule] as const))('%s: reads only series the services export', (_name, rule) => {
    const names = metricNames(rule.expr);
    expect(names.length).toBeGreaterThan(0);
    for (const metric of names) expect(exported.has(metric), `${metric} is exported by a service`).toBe(true);
  });
});
