import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../scenarios/plan-scenarios';
import { runScenario, type ScenarioResult } from '../scenarios/run-scenarios';

describe('the planner completes a suite of scripted multi-step scenarios (fake Gemini, injected failures)', () => {
  it(`completes all ${SCENARIOS.length} of them`, async () => {
    expect(SCENARIOS.length).toBeGreaterThanOrEqual(20);
    const results: ScenarioResult[] = [];
    for (const scenario of SCENARIOS) results.push(await runScenario(scenario));
    const complete = results.filter((result) => result.isComplete).length;
    console.log(
      `plan scenarios: ${complete}/${results.length} completed (${Math.round((100 * complete) / results.length)}%)`,
    );
    expect(results.filter((result) => !result.isComplete)).toEqual([]);
  }, 120_000);
});
