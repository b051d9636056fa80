/** Hosted mode's /metrics: several bots' registries, the same metric names in each, served as one text. */
import { collectDefaultMetrics, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { aggregatedText, Metrics } from '../../src/ops/metrics.js';

describe('the metrics of several workspace bots served together', () => {
  it("keeps each bot's series apart by its tenant label, with the process's figures once", async () => {
    const alpha = new Metrics({ defaultMetrics: false, labels: { tenant: 'T0ALPHA' } });
    const beta = new Metrics({ defaultMetrics: false, labels: { tenant: 'T0BETA' } });
    alpha.command('balance', 'ok');
    alpha.command('balance', 'ok');
    beta.command('balance', 'ok');
    beta.fleetCall({ method: 'GET', path: '/api/v1/b2b/account/balance', status: 200, seconds: 0.1 });
    const process = new Registry();
    collectDefaultMetrics({ register: process });

    const { body } = await aggregatedText([process, alpha.registry, beta.registry]);
    expect(body).toContain('fleet_bot_commands_total{subcommand="balance",outcome="ok",tenant="T0ALPHA"} 2');
    expect(body).toContain('fleet_bot_commands_total{subcommand="balance",outcome="ok",tenant="T0BETA"} 1');
    expect(body).toContain('fleet_bot_fleet_api_calls_total{method="GET",endpoint="/api/v1/b2b/account/balance",status="200",tenant="T0BETA"} 1');
    expect(body.match(/^# TYPE fleet_bot_commands_total counter$/gm)).toHaveLength(1);
    expect(body.match(/^process_resident_memory_bytes \d/gm)).toHaveLength(1);
    // A plain merge refuses the repeated names.
    expect(() => Registry.merge([alpha.registry, beta.registry])).toThrow();
  });

  it('labels nothing in a single workspace, as before', async () => {
    const single = new Metrics({ defaultMetrics: false });
    single.command('balance', 'ok');
    expect((await single.text()).body).toContain('fleet_bot_commands_total{subcommand="balance",outcome="ok"} 1');
  });
});
