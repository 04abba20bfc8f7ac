import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './project.js';

/** The import specifiers a package's exports map promises code, e.g. `@dataplatform/webhooks/node`. */
export function codeEntries(project: string, name: string): string[] {
  const manifest = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as {
    exports?: Record<string, unknown>;
  };
  return Object.keys(manifest.exports ?? {})
    .filter((subpath) => !subpath.endsWith('.json'))
    .map((subpath) => (subpath === '.' ? name : `${name}/${subpath.slice(2)}`));
}

/**
 * Loads each specifier in a fresh Node.js from the project's folder, with `import()` (ESM) or `require`
 * (CommonJS), and gives back the failures: specifier and message.
 */
export async function loadFailures(
  project: string,
  specifiers: string[],
  style: 'import' | 'require',
): Promise<string[]> {
  const list = JSON.stringify(specifiers);
  const script =
    style === 'import'
      ? `const failed = []; for (const s of ${list}) { try { const m = await import(s); if (Object.keys(m).length === 0) failed.push(s + ': exports nothing'); } catch (e) { failed.push(s + ': ' + e.message); } } console.log(JSON.stringify(failed));`
      : `const failed = []; for (const s of ${list}) { try { const m = require(s); if (Object.keys(m).length === 0) failed.push(s + ': exports nothing'); } catch (e) { failed.push(s + ': ' + e.message); } } console.log(JSON.stringify(failed));`;
  const args =
    style === 'import' ? ['--input-type=module', '-e', script] : ['--input-type=commonjs', '-e', script];
  const ran = await run(process.execPath, args, project);
  if (ran.code !== 0) return [`node exited with ${ran.code}: ${ran.stderr}`];
  return JSON.parse(ran.stdout) as string[];
}
