import * as nodeModule from 'node:module';
import { ELECTRON_EXPORTS } from './electron/index';

/**
 * Makes `import … from 'electron'` in the built main bundle load the stand-in of the current run. Each run
 * gets its own module URL, so a restarted app binds to the new run's objects, not the old ones.
 */
const KEY = Symbol.for('deputy.harness.electron');
let isInstalled = false;
let run = 0;

function moduleSource(): string {
  return [
    `// run ${run}`,
    `const electron = globalThis[Symbol.for('deputy.harness.electron')];`,
    ...ELECTRON_EXPORTS.map((name) => `export const ${name} = electron.${name};`),
    'export default electron;',
  ].join('\n');
}

export function provideElectron(exports: Record<string, unknown>): void {
  (globalThis as Record<symbol, unknown>)[KEY] = exports;
  run += 1;
  if (isInstalled) return;
  // Synchronous, in-thread module hooks arrived in Node 22.15 and 23.5.
  if (typeof nodeModule.registerHooks !== 'function') {
    throw new Error(
      `The desktop harness needs Node >= 22.15 (module.registerHooks); this is ${process.version}.`,
    );
  }
  isInstalled = true;
  nodeModule.registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier !== 'electron') return nextResolve(specifier, context);
      return {
        url: `data:text/javascript,${encodeURIComponent(moduleSource())}`,
        format: 'module',
        shortCircuit: true,
      };
    },
  });
}
