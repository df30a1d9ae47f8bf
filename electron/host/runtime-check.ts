/**
 * The Node.js releases Deputy runs on (package.json's engines field says the same): 22 from 22.15, and 24 on.
 * 22.12 runs the app, but its lint tools (eslint and its parts) need 22.13 and the desktop test harness
 * needs module.registerHooks (22.15); 23 was a short-lived odd release eslint does not support either.
 */
export const MINIMUM_NODE = [22, 15] as const;
const NEXT_SUPPORTED_MAJOR = 24;

/**
 * Says what is wrong with the runtime, in words a person can act on, or null when it will do. Run before
 * anything native is loaded: an older Node cannot load better-sqlite3's build and dies without a message.
 */
export function runtimeProblem(versions: NodeJS.ProcessVersions = process.versions): string | null {
  const [major = 0, minor = 0] = versions.node.split('.').map(Number);
  const [needMajor, needMinor] = MINIMUM_NODE;
  if (major >= NEXT_SUPPORTED_MAJOR || (major === needMajor && minor >= needMinor)) return null;
  const needed = `${needMajor}.${needMinor} (or ${NEXT_SUPPORTED_MAJOR} and newer)`;
  if (versions.electron) {
    return `This Electron (${versions.electron}) runs Node ${versions.node}; Deputy needs Node ${needed} inside it. Run "npm ci" to install the Electron version Deputy is built for.`;
  }
  return `Deputy needs Node.js ${needed}; this is Node ${versions.node}. Install a current Node.js (https://nodejs.org) and run "npm ci" again, so its native modules are built for it.`;
}
