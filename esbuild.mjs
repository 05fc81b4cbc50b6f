// Builds the extension bundle (cjs, node, `vscode` external) and the `live-ast-grep` command line
// (dist/cli.js), and copies the tree-sitter runtime and grammar .wasm files beside them; with
// --tests also the unit and integration suites, the test harness (with the benchmarks) and the
// scripted-model test extension; with --manifest rewrites the catalog-derived parts of
// package.json and media/plan.agent.md.
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  // The package's ESM build reads import.meta.url, which is empty in a cjs bundle: take its cjs build.
  alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
};

function filesUnder(dir, suffix) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
    .map((entry) => join(entry.parentPath, entry.name));
}

async function buildExtension() {
  rmSync('dist', { recursive: true, force: true });
  await esbuild.build({
    ...node,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    external: ['vscode'],
  });
  // The command line (package.json "bin"), for the repository and the benchmark; not in the .vsix.
  // A batch run holds little between files: a small young generation and old generation keep its
  // peak memory down (V8's defaults let ~35 MB of garbage gather first); the parsing threads have
  // the same 64 MB limit. Flags set once running come too late, hence the shebang line.
  const CLI_SHEBANG = '#!/usr/bin/env -S node --max-semi-space-size=1 --max-old-space-size=64';
  await esbuild.build({
    ...node,
    entryPoints: ['src/cli/astGrepCli.ts'],
    outfile: 'dist/cli.js',
    banner: { js: CLI_SHEBANG },
  });
  chmodSync('dist/cli.js', 0o755);
  // The structural engine's parsing threads (src/structural/parsePool.ts), for both.
  await esbuild.build({ ...node, entryPoints: ['src/structural/parseWorker.ts'], outfile: 'dist/parseWorker.js' });
  // The editor's trigram index thread (src/structural/trigramFilter.ts).
  await esbuild.build({ ...node, entryPoints: ['src/structural/indexWorker.ts'], outfile: 'dist/indexWorker.js' });
  // lsp_apply rename_file's thread: TypeScript's edits for a moved file (it loads the editor's TypeScript).
  await esbuild.build({
    ...node,
    entryPoints: ['src/lsp/fileRename/fileRenameWorker.ts'],
    outfile: 'dist/fileRenameWorker.js',
  });
  // The language client of our own servers (vscode-languageclient), loaded when the first one starts.
  await esbuild.build({
    ...node,
    entryPoints: ['src/lsp/vscode/supervisedClient.ts'],
    outfile: 'dist/languageClient.js',
    external: ['vscode'],
  });
  // debugpy's adapter as the debug tool starts it (see the script's docstring).
  mkdirSync('dist/debug', { recursive: true });
  copyFileSync('src/debug/python/debugpy_adapter.py', 'dist/debug/debugpy_adapter.py');
  // The kernels of the eval tool: the Python driver is copied as it is, the JavaScript host bundled.
  mkdirSync('dist/kernels', { recursive: true });
  copyFileSync('src/kernels/python/kernel.py', 'dist/kernels/python_kernel.py');
  await esbuild.build({
    ...node,
    entryPoints: ['src/kernels/javascript/jsKernelHost.ts'],
    outfile: 'dist/kernels/jsKernelHost.js',
  });
  // The MCP endpoint's session (loaded when the first agent connects: the SDK stays out of activation)
  // and the stdio bridge an agent starts (package.json "bin", in the .vsix too).
  await esbuild.build({ ...node, entryPoints: ['src/mcp/mcpSession.ts'], outfile: 'dist/mcpSession.js' });
  await esbuild.build({
    ...node,
    entryPoints: ['src/mcp/bridge.ts'],
    outfile: 'dist/mcpBridge.js',
    banner: { js: '#!/usr/bin/env node' },
  });
  chmodSync('dist/mcpBridge.js', 0o755);
  // The question card's icons: the editor's codicon font, which a webview cannot borrow from the workbench.
  mkdirSync('dist/media', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf'])
    copyFileSync(require.resolve(`@vscode/codicons/dist/${file}`), `dist/media/${file}`);
  copyWasm();
}

/**
 * The tree-sitter runtime goes to dist/web-tree-sitter.wasm (where the bundled runtime looks, beside
 * extension.js) and each grammar of grammars/grammars.json to dist/grammars/<id>.wasm, taken from the
 * exact package version the manifest names, with the manifest's byte patch applied where it has one.
 */
function copyWasm() {
  copyFileSync(require.resolve('web-tree-sitter/web-tree-sitter.wasm'), 'dist/web-tree-sitter.wasm');
  mkdirSync('dist/grammars', { recursive: true });
  for (const grammar of JSON.parse(readFileSync('grammars/grammars.json', 'utf8'))) {
    const packageDir = dirname(require.resolve(`${grammar.package}/package.json`));
    const installed = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
    if (installed !== grammar.version) {
      throw new Error(
        `grammars.json pins ${grammar.package}@${grammar.version} for ${grammar.id}, node_modules has ${installed}: run npm ci`,
      );
    }
    const wasm = readFileSync(join(packageDir, grammar.wasm));
    if (grammar.patch) patchWasm(wasm, grammar);
    writeFileSync(`dist/grammars/${grammar.id}.wasm`, wasm);
  }
}

/** Rewrites the bytes at `patch.offset` from `expect` to `replace` (hex), refusing any other file. */
function patchWasm(wasm, { id, patch }) {
  const expect = Buffer.from(patch.expect, 'hex');
  const found = wasm.subarray(patch.offset, patch.offset + expect.length);
  if (!found.equals(expect)) {
    throw new Error(
      `grammars.json patch for ${id}: expected ${patch.expect} at ${patch.offset}, found ${found.toString('hex')}`,
    );
  }
  Buffer.from(patch.replace, 'hex').copy(wasm, patch.offset);
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
      // The structural benchmark's warm engine, in a process of its own: `node out/bench/warmProcess.js SPEC.json`.
      'bench/warmProcess.ts',
      // A stdio debug adapter for the debug tests: `node out/test/fixtures/faultAdapter.js`.
      { in: 'test/fixtures/faultAdapter/faultAdapter.ts', out: 'test/fixtures/faultAdapter' },
      // A stand-in extension host for the kernels' orphan tests: `node out/test/fixtures/kernelHost.js`.
      { in: 'test/fixtures/kernelHost/kernelHost.ts', out: 'test/fixtures/kernelHost' },
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
  // It runs the fault adapter for its debugger type; the extension is copied into the profile, so it carries its own copy.
  copyFileSync('out/test/fixtures/faultAdapter.js', 'out/test/scripted-model/faultAdapter.js');
}

async function writeManifest() {
  const outfile = 'out/manifest/manifest.cjs';
  await esbuild.build({ ...node, sourcemap: false, entryPoints: ['src/tools/manifestEntry.ts'], outfile });
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
