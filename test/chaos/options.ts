import { parseArgs } from 'node:util';

/** What a chaos run was asked to do, from its command line and the environment. */
export interface ChaosOptions {
  cycles: number;
  /** As given (or made up from the clock), printed in the report so a run can be repeated. */
  seed: string;
  /** Where to write the report as JSON, if anywhere. */
  reportPath: string | null;
  /** Keep the data folder afterwards, to look at the database by hand. */
  shouldKeepData: boolean;
}

/** Locally the issue asks for at least 200 kill-and-restart cycles; CI gets a shorter setting. */
export const LOCAL_CYCLES = 200;
export const CI_CYCLES = 30;

export class ChaosUsageError extends Error {}

export function parseChaosOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ChaosOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        cycles: { type: 'string' },
        seed: { type: 'string' },
        report: { type: 'string' },
        keep: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    throw new ChaosUsageError(
      `${(error as Error).message}\nUsage: npm run test:chaos -- [--cycles N] [--seed S] [--report F] [--keep]`,
    );
  }
  const isCi = env.CI !== undefined && env.CI !== '' && env.CI !== 'false';
  const cycles = values.cycles === undefined ? (isCi ? CI_CYCLES : LOCAL_CYCLES) : Number(values.cycles);
  if (!Number.isInteger(cycles) || cycles < 1 || cycles > 100_000) {
    throw new ChaosUsageError(`--cycles must be a whole number from 1 to 100000, not "${values.cycles}".`);
  }
  const seed = values.seed ?? String(Date.now() % 1_000_000_000);
  if (seed.trim() === '') throw new ChaosUsageError('--seed must not be empty.');
  return { cycles, seed, reportPath: values.report ?? null, shouldKeepData: values.keep === true };
}
