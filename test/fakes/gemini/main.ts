import { parseArgs } from 'node:util';
import { echoStep } from './echo';
import { startFakeGemini } from './server';

/** `npx tsx test/fakes/gemini/main.ts --port 8787`: a fake Gemini that echoes, for trying the app by hand. */
const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, host: { type: 'string' } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`--port must be a port number, not "${values.port}"`);
  process.exit(2);
}

const fake = await startFakeGemini({ port, host: values.host, fallback: echoStep });
console.log(`Fake Gemini listening on ${fake.url}`);
console.log(`Try: DEPUTY_GEMINI_BASE_URL=${fake.url} GEMINI_API_KEY=fake-key npm run serve`);

const stop = (): void => {
  void fake.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
