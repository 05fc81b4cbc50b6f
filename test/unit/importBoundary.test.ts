import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isGlue, sourceFiles, srcRoot as src } from './support/sourceTree';

const importsVscode = /(?:from\s+|require\(\s*|import\(\s*)['"]vscode['"]/;

describe('engine boundary', () => {
  it('no engine module imports vscode', () => {
    const engines = sourceFiles().filter((file) => !isGlue(file));
    assert.ok(engines.length > 10, `found only ${engines.length} engine files`);
    const offenders = engines.filter((file) => importsVscode.test(fs.readFileSync(path.join(src, file), 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('no engine module imports editor glue', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles().filter((candidate) => !isGlue(candidate))) {
      const text = fs.readFileSync(path.join(src, file), 'utf8');
      for (const match of text.matchAll(/from\s+'(\.[^']+)'/g)) {
        const target = path.relative(src, path.resolve(path.dirname(path.join(src, file)), match[1]));
        if (isGlue(`${target}.ts`)) offenders.push(`${file} → ${match[1]}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('tool declarations are plain data: no vscode, no tool implementation', () => {
    const declarations = sourceFiles().filter((file) => /^tools[\\/][^\\/]+[\\/]declaration\.ts$/.test(file));
    assert.ok(declarations.length >= 12, `found only ${declarations.length} declaration files`);
    const offenders: string[] = [];
    for (const file of [...declarations, path.join('tools', 'declarations.ts'), path.join('tools', 'schemaParts.ts')]) {
      const text = fs.readFileSync(path.join(src, file), 'utf8');
      if (importsVscode.test(text)) offenders.push(`${file} → vscode`);
      for (const match of text.matchAll(/from\s+'(\.[^']+)'/g)) {
        if (/(^|\/)tool$/.test(match[1]) || /\/vscode\//.test(match[1])) offenders.push(`${file} → ${match[1]}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  it('no stray console.log in the extension', () => {
    const offenders = sourceFiles().filter((file) =>
      /console\.(log|info|debug)\(/.test(fs.readFileSync(path.join(src, file), 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });
});

describe('one writer', () => {
  /** What writes files or applies edits: a WorkspaceEdit, a save, a write, delete or move of a file. */
  const WRITES = [
    /\.applyEdit\(/,
    /\.save\(\)/,
    /\bworkspace\.fs\.(writeFile|delete|rename|copy)\(/,
    /\bfs\.(promises\.)?(writeFile|appendFile|rename|unlink|rm|copyFile|truncate)(Sync)?\(/,
  ];
  /** Writes that are not of workspace files, each with why. */
  const ALLOWED: Readonly<Record<string, string>> = {
    [path.join('workspace', 'vscode', 'workspaceWriter.ts')]: 'the one writer',
    [path.join('mcp', 'endpointServer.ts')]:
      "the window's discovery file and socket directory, in the user's state directory",
    [path.join('mcp', 'endpoint.ts')]: "the discovery files of windows that are gone, in the user's state directory",
    [path.join('testing', 'runTests.ts')]: "the test runner's report, in a temporary folder of its own",
    [path.join('structural', 'indexWorker.ts')]: "the trigram index, in the extension's workspace storage",
    [path.join('vibe', 'workerCopies.ts')]:
      "workers' private copies, in the extension's storage (their work comes back as a staged change the writer applies)",
  };

  it('no module but the writer writes workspace files or applies a WorkspaceEdit', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles()) {
      if (ALLOWED[file]) continue;
      const lines = fs.readFileSync(path.join(src, file), 'utf8').split('\n');
      lines.forEach((line, index) => {
        if (/^\s*(\/\/|\*)/.test(line)) return;
        if (WRITES.some((pattern) => pattern.test(line))) offenders.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(
      offenders,
      [],
      'change workspace files through WorkspaceWriter.apply (src/workspace/vscode/workspaceWriter.ts)',
    );
  });

  it('the check sees a write where one is', () => {
    const found = (line: string) => WRITES.some((pattern) => pattern.test(line));
    assert.ok(found('await vscode.workspace.applyEdit(edit);'));
    assert.ok(found('await document.save();'));
    assert.ok(found('fs.writeFileSync(file, text);'));
    assert.ok(found('await fs.promises.writeFile(file, bytes);'));
    assert.ok(found('await vscode.workspace.fs.writeFile(uri, bytes);'));
    assert.ok(!found('context.workspaceState.update(KEY, log.serialized());'), 'workspace state is no file');
  });
});

describe('what activation loads', () => {
  it('the extension bundle leaves the language client and the MCP SDK to the bundles loaded on first use', () => {
    const bundle = fs.readFileSync(path.join(src, '..', 'dist', 'extension.js'), 'utf8');
    // esbuild names each bundled module's path in a comment (the test build is not minified).
    assert.match(
      bundle,
      /\/\/ src\/extension\.ts/,
      'dist/extension.js is not the test build: run node esbuild.mjs --tests',
    );
    const carried = ['node_modules/vscode-languageclient/', 'node_modules/@modelcontextprotocol/sdk/'].filter(
      (library) => bundle.includes(library),
    );
    assert.deepEqual(
      carried,
      [],
      'import these with `import type` only; dist/languageClient.js and dist/mcpSession.js load them',
    );
  });
});
