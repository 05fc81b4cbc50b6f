// Lint enforces the layering the code relies on (docs/architecture.md, "Layers"); the formatter
// (Prettier, .prettierrc.json) owns layout, so no stylistic rule lives here.
import tseslint from 'typescript-eslint';

/** Engines: plain TypeScript, testable on Node. Glue: `**​/vscode/**`, src/tools/, the entry files. */
const GLUE = ['src/**/vscode/**', 'src/tools/**', 'src/extension.ts', 'src/runtime.ts'];
/** A tool's declaration is data: it may import its engine's types, never the editor or an implementation. */
const DECLARATIONS = ['src/tools/*/declaration.ts', 'src/tools/declarations.ts', 'src/tools/schemaParts.ts'];

const vscodeImport = {
  name: 'vscode',
  message: 'Engines do not import vscode: put editor glue under a vscode/ folder or in src/tools/.',
};
const glueImports = {
  group: ['**/vscode/**', '**/tools/**', '**/tools', '**/extension', '**/runtime'],
  message: 'An engine never imports editor glue or a tool: pass what it needs in through an interface (a host).',
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      '.vscode-test/**',
      'test/fixtures/**',
      'media/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      'no-debugger': 'error',
      'no-dupe-keys': 'error',
      'no-unreachable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: GLUE,
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodeImport], patterns: [glueImports] }],
      'no-console': 'error',
    },
  },
  {
    files: DECLARATIONS,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [vscodeImport],
          patterns: [
            {
              group: ['**/vscode/**', '**/tool', './*/tool', '../*/tool'],
              message: 'A declaration is data: no editor glue, no tool implementation.',
            },
          ],
        },
      ],
    },
  },
);
