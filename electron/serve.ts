import { runtimeProblem } from './host/runtime-check';

// `npm run serve`'s entry. The runtime is checked before anything native is loaded, so an old Node gets a
// sentence saying what to do instead of a crash inside better-sqlite3.
const problem = runtimeProblem();
if (problem) {
  console.error(`[deputy] ${problem}`);
  process.exit(1);
}
await import('./serve-host');
