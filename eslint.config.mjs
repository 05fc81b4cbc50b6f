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

/**
 * Which areas each area may import (Dart-Code's per-area no-restricted-imports), so no import runs
 * back up: the shared floor imports only below itself, an area the floor and the areas named for it,
 * the tools the areas whose engines they drive, and only the entry glue everything.
 */
const FLOOR = ['log', 'platform', 'async', 'edits', 'process', 'project', 'workspace'];
const AREAS = {
  log: [],
  platform: ['log'],
  async: ['platform'],
  edits: ['platform'],
  process: ['async', 'log', 'platform'],
  project: ['async', 'log', 'platform', 'process'],
  workspace: ['async', 'edits', 'log', 'platform'],
  runtime: FLOOR,
  changes: [...FLOOR, 'runtime'],
  debug: [...FLOOR, 'runtime'],
  kernels: [...FLOOR, 'runtime'],
  lsp: [...FLOOR, 'runtime'],
  questions: [...FLOOR, 'runtime'],
  staging: [...FLOOR, 'runtime'],
  structural: [...FLOOR, 'runtime'],
  testing: [...FLOOR, 'runtime'],
  vibe: [...FLOOR, 'runtime'],
  writes: [...FLOOR, 'runtime', 'lsp'],
  cli: [...FLOOR, 'structural'],
  tools: [
    ...FLOOR,
    'runtime',
    'changes',
    'debug',
    'kernels',
    'lsp',
    'questions',
    'staging',
    'structural',
    'testing',
    'vibe',
    'writes',
  ],
  mcp: [...FLOOR, 'runtime', 'tools'],
  playground: [...FLOOR, 'runtime', 'tools'],
};
/** Areas that are one file at src/ (the rest are folders). */
const FILE_AREAS = new Set(['runtime', 'extension']);
const ALL_AREAS = [...Object.keys(AREAS), 'extension'];

/** The import patterns of the areas `area` may not import. */
function upwardImports(area) {
  const forbidden = ALL_AREAS.filter((other) => other !== area && !AREAS[area].includes(other));
  if (forbidden.length === 0) return [];
  return [
    {
      group: forbidden.flatMap((other) =>
        FILE_AREAS.has(other) ? [`**/${other}`] : [`**/${other}/*`, `**/${other}/**`],
      ),
      message: `src/${area} may import only ${AREAS[area].join(', ') || 'nothing of the other areas'} (eslint.config.mjs, AREAS): what two areas share moves down to the floor.`,
    },
  ];
}

/** The files of an area, engines or glue. */
function areaFiles(area) {
  return FILE_AREAS.has(area) ? [`src/${area}.ts`] : [`src/${area}/**/*.ts`];
}

/** Per area: every file gets the area's restrictions; its engines, also no vscode and no glue (the later block wins). */
const areaRules = Object.keys(AREAS).flatMap((area) => [
  {
    files: areaFiles(area),
    rules: { 'no-restricted-imports': ['error', { patterns: upwardImports(area) }] },
  },
  {
    files: areaFiles(area),
    ignores: GLUE,
    rules: {
      'no-restricted-imports': ['error', { paths: [vscodeImport], patterns: [glueImports, ...upwardImports(area)] }],
    },
  },
]);

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
  ...areaRules,
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
