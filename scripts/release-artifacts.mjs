// `pnpm release:artifacts`: builds every client's local package files into one folder, release/ (or the folder
// given as the first argument): an npm tarball of each public package, the Python client's wheel and sdist, the
// Go client's module source archive and the Java client's jars.
// Each installs from the file alone (README.md, "Installing from the package files").
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = resolve(process.argv[2] ?? join(root, 'release'));
const run = (command, args, cwd = root) => execFileSync(command, args, { cwd, stdio: 'inherit' });

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// npm: every package that is published, built first; `pnpm pack` turns `workspace:*` into real versions.
const published = readdirSync(join(root, 'packages'))
  .map((name) => join(root, 'packages', name))
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .filter((dir) => !JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).private);
const filters = published.flatMap((dir) => ['--filter', `./${dir.slice(root.length + 1)}`]);
run('pnpm', ['exec', 'turbo', 'run', 'build', ...filters, '--output-logs=errors-only']);
for (const dir of published) run('pnpm', ['pack', '--pack-destination', out], dir);

// Python: the wheel and the sdist, built by hatchling in a virtual environment of pinned packages.
const python = buildEnvironment();
run(python, [
  '-m',
  'build',
  '--no-isolation',
  '--wheel',
  '--sdist',
  '--outdir',
  out,
  join(root, 'packages/sdk-python'),
]);

goModuleArchive(join(root, 'packages/sdk-go'), out);

// Java: the jar, its sources and javadoc jars, and the pom that names its dependencies, built by Maven (which
// takes them from Maven Central into ~/.m2 the first time).
const java = join(root, 'packages/sdk-java');
run('mvn', ['-B', '-ntp', '-q', '-T1', 'package', '-DskipTests'], java);
const jarVersion = /<artifactId>dataplatform-sdk<\/artifactId>\s*<version>([^<]+)<\/version>/.exec(
  readFileSync(join(java, 'pom.xml'), 'utf8'),
)[1];
for (const suffix of ['.jar', '-sources.jar', '-javadoc.jar']) {
  const name = `dataplatform-sdk-${jarVersion}${suffix}`;
  copyFileSync(join(java, 'target', name), join(out, name));
}
copyFileSync(join(java, 'pom.xml'), join(out, `dataplatform-sdk-${jarVersion}.pom`));

console.log(`\nrelease artifacts in ${out}:`);
for (const file of readdirSync(out).sort()) console.log(`  ${file}`);

/** The `python` of a virtual environment holding requirements-build.txt, made once and kept while it is unchanged. */
function buildEnvironment() {
  const requirements = join(root, 'packages/sdk-python/requirements-build.txt');
  const venv = join(root, 'node_modules/.cache/release/venv');
  const stamp = join(venv, 'requirements.sha256');
  const wanted = createHash('sha256').update(readFileSync(requirements)).digest('hex');
  const bin = join(venv, 'bin', 'python');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return bin;
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(dirname(venv), { recursive: true });
  run('python3', ['-m', 'venv', venv]);
  run(bin, [
    '-m',
    'pip',
    'install',
    '--disable-pip-version-check',
    '--no-input',
    '--quiet',
    '-r',
    requirements,
  ]);
  writeFileSync(stamp, wanted);
  return bin;
}

/**
 * The Go client's module source archive, `dataplatform-go-<version>.tar.gz`: one folder holding the module as a
 * user builds it (go.mod, the package and its webhooks package, README), without the tests and the conformance
 * runner, which read the monorepo's spec. Used with `go mod edit -replace` (docs/go.md). When Go is on the machine,
 * the unpacked folder is built on its own first, so an archive that needs the monorepo is never written.
 */
function goModuleArchive(module, outDir) {
  const version = JSON.parse(readFileSync(join(module, 'package.json'), 'utf8')).version;
  const name = `dataplatform-go-${version}`;
  const staging = mkdtempSync(join(tmpdir(), 'dp-go-module-'));
  const folder = join(staging, name);
  const shipped = (file) =>
    /^(go\.mod|README\.md|LICENSE|[\w]+\.go|webhooks\/\w+\.go)$/.test(file) && !file.endsWith('_test.go');
  try {
    cpSync(module, folder, {
      recursive: true,
      filter: (source) => {
        const file = relative(module, source);
        return file === '' || file === 'webhooks' || shipped(file);
      },
    });
    let hasGo = true;
    try {
      execFileSync('go', ['version'], { stdio: 'ignore' });
    } catch {
      hasGo = false;
    }
    if (hasGo) run('go', ['build', './...'], folder);
    // A reproducible archive: sorted names, one owner, the time of the last commit.
    const mtime = execFileSync('git', ['log', '-1', '--format=%cI'], { cwd: root, encoding: 'utf8' }).trim();
    run('tar', [
      '--sort=name',
      `--mtime=${mtime}`,
      '--owner=0',
      '--group=0',
      '--numeric-owner',
      '-czf',
      join(outDir, `${name}.tar.gz`),
      '-C',
      staging,
      name,
    ]);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
