import { benchDeltaLatency } from './delta-latency';
import { benchEngineStep } from './engine-step';
import { ms } from './stats';

/** `npm run bench`: prints the figures the issues ask for. Not a test: figures vary with the machine. */
async function main(): Promise<void> {
  console.log(`Deputy bench — node ${process.version}, ${process.platform}/${process.arch}`);

  const steps = await benchEngineStep(2_000);
  console.log(
    `engine overhead per tool-loop step (zero-latency model, SQLite writes included): ` +
      `median ${ms(steps.median)}, p95 ${ms(steps.p95)}, max ${ms(steps.max)} over ${steps.n} steps (target median ≤ 1 ms)`,
  );

  const deltas = await benchDeltaLatency(20);
  console.log(
    `delta latency, fake Gemini chunk → WebSocket client: ` +
      `median ${ms(deltas.median)}, p95 ${ms(deltas.p95)}, max ${ms(deltas.max)} over ${deltas.n} deltas (target p95 ≤ 5 ms)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
