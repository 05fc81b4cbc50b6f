// Builds the extension bundle (cjs, node, `vscode` external); with --tests also the unit and
// integration suites, the test harness and the scripted-model test extension; with
// --manifest rewrites the catalog-derived parts of package.json and media/plan.agent.md.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const args = new Set(process.argv.slice(2));
const production = args.has('--production');
const require = createRequire(import.meta.url);

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
};

function filesUnder(dir, suffix) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name));
}

async function buildExtension() {
  rmSync('dist', { recursive: true, force: true });
  await esbuild.build({ ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] });
}

async function buildTests() {
  rmSync('out', { recursive: true, force: true });
  const external = ['vscode', 'mocha', 'playwright-core', 'typescript', '@vscode/test-electron'];
  await esbuild.build({
    ...node,
    entryPoints: [
      ...filesUnder('test/unit', '.test.ts'),
      'test/integration/index.ts',
      ...filesUnder('test/integration', '.test.ts'),
      'test/run.ts',
      'test/harness/start.ts',
      'test/harness/bench.ts',
      'test/electron/runElectron.ts',
      ...filesUnder('bench', '.bench.ts'),
    ],
    outdir: 'out',
    outbase: '.',
    external,
  });
  // The scripted language model lives in its own small extension, installed into the test profile.
  mkdirSync('out/test/scripted-model', { recursive: true });
  await esbuild.build({
    ...node,
    entryPoints: ['test/scripted-model/extension.ts'],
    outfile: 'out/test/scripted-model/extension.js',
    external: ['vscode'],
  });
  copyFileSync('test/scripted-model/package.json', 'out/test/scripted-model/package.json');
}

async function writeManifest() {
  const outfile = 'out/manifest/manifest.cjs';
  await esbuild.build({ ...node, sourcemap: false, entryPoints: ['src/registry/manifestEntry.ts'], outfile });
  const { manifestFiles } = require(join(process.cwd(), outfile));
  const files = manifestFiles(JSON.parse(readFileSync('package.json', 'utf8')));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
}

if (args.has('--manifest')) {
  await writeManifest();
} else {
  await buildExtension();
  if (args.has('--tests')) await buildTests();
}
