import { runtimeProblem } from './host/runtime-check';

// `npm run mcp`'s entry: stdout carries the protocol, so everything Deputy has to say goes to stderr.
const problem = runtimeProblem();
if (problem) {
  console.error(`[deputy] ${problem}`);
  process.exit(1);
}
const token = process.env.DEPUTY_API_TOKEN?.trim();
if (!token) {
  console.error(
    '[deputy] Set DEPUTY_API_TOKEN to the token of the running Deputy (npm run serve prints it).',
  );
  process.exit(1);
}
const { runStdioBridge } = await import('./mcp/stdio-bridge');
await runStdioBridge({
  url: process.env.DEPUTY_URL?.trim() || 'http://127.0.0.1:4747',
  token,
  log: (line) => console.error(`[deputy mcp] ${line}`),
});
