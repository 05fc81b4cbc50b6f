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
