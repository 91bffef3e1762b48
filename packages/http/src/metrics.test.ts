/**
 * metricsPlugin: request durations by method, route pattern (never the raw URL)
 * and status; GET /metrics in Prometheus' text format with the service label.
 */
import { describe, expect, test } from 'vitest';
import { createApp } from './index';
import { Counter, createMetricsRegistry, metricsPlugin, registeredMetric } from './metrics';

describe('metricsPlugin', () => {
  test('records http_request_duration_seconds by route pattern and status, unmatched for 404s', async () => {
    const registry = createMetricsRegistry('test-api', { defaultMetrics: false });
    const app = createApp();
    app.register(metricsPlugin, { registry });
    app.get('/api/team/:id', async () => ({ ok: true }));
    await app.ready();
    await app.inject({ method: 'GET', url: '/api/team/12' });
    await app.inject({ method: 'GET', url: '/api/team/13' });
    await app.inject({ method: 'GET', url: '/nowhere/12345' });
    const answer = await app.inject({ method: 'GET', url: '/metrics' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = answer.body;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(text).toContain('http_request_duration_seconds_count{service="test-api",method="GET",route="/api/team/:id",status_code="200"} 2');
    expect(text).toContain('http_request_duration_seconds_count{service="test-api",method="GET",route="unmatched",status_code="404"} 1');
    expect(text).not.toContain('/api/team/12');
    expect(text).not.toContain('/nowhere');
    await app.close();
  });

  test('default metrics are collected into the registry, labelled with the service', async () => {
    const registry = createMetricsRegistry('test-defaults');
    const text = await registry.metrics();
    expect(text).toMatch(/^process_cpu_user_seconds_total\{service="test-defaults"\} /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{service="test-defaults"\} /m);
  });

  test('two apps on one registry share the histogram; registeredMetric reuses what is there', async () => {
    const registry = createMetricsRegistry('shared', { defaultMetrics: false });
    const apps = [createApp(), createApp()];
    for (const app of apps) {
      app.register(metricsPlugin, { registry });
      await app.ready();
    }
    const make = () => new Counter({ name: 'x_total', help: 'x', registers: [registry] });
    expect(registeredMetric(registry, 'x_total', make)).toBe(registeredMetric(registry, 'x_total', make));
    await Promise.all(apps.map((app) => app.close()));
  });
});
