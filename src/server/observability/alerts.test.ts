import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { promtool } from '../testing/promtool';

// The alerts docs/operations.md offers (docs/prometheus/herald-alerts.yml), checked and run by
// Prometheus's own promtool against the series in docs/prometheus/herald-alerts.test.yml.
// Seen red with the rules as they were documented before (metric names brought up to date): the
// failed-deliveries and failed-report-jobs gauges falling after retention fired (increase() read the
// fall as a counter reset), the refusal ratio of 2 refused messages in a hand-over of 10 fired
// (messages over hand-overs), and a queue with no worker at all never fired (`and` over no series).
// That planned pauses and quiet hours are held, not queued, is herald_queue_depth's own: see
// http/observability.test.ts; here a held queue with a bound, idle worker stays quiet.
const RULES = path.resolve(import.meta.dirname, '../../../docs/prometheus');

describe('the documented alerts', () => {
  it('are valid rules, and their tests pass under promtool', async () => {
    const checked = await promtool(['check', 'rules', path.join(RULES, 'herald-alerts.yml')]);
    expect(checked.output).toContain('SUCCESS: 16 rules found');
    expect(checked.code).toBe(0);
    const tested = await promtool(['test', 'rules', path.join(RULES, 'herald-alerts.test.yml')]);
    expect(tested.output).toContain('SUCCESS');
    expect(tested.code, tested.output).toBe(0);
  });
});
