import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DirListing, findScriptProjects, scriptProjectsIn, staticPrefix } from '../../src/project/scriptProjects';
import { withTempDir } from '../support/tempDir';

/** A listing from `dir/file` paths under /w (parents before children, as the walk gives them) and the texts of some. */
function projectsOf(files: Record<string, string>): { dir: string; marker: string; entry?: string }[] {
  const dirs = new Map<string, Set<string>>([['/w', new Set()]]);
  for (const file of Object.keys(files)) {
    const absolute = path.join('/w', file);
    for (let dir = path.dirname(absolute); dir !== '/'; dir = path.dirname(dir))
      if (!dirs.has(dir)) dirs.set(dir, new Set());
    dirs.get(path.dirname(absolute))!.add(path.basename(absolute));
  }
  const listing: DirListing = [...dirs.entries()]
    .sort(([a], [b]) => a.split('/').length - b.split('/').length || a.localeCompare(b))
    .map(([dir, names]) => ({ dir, files: names }));
  const text = (file: string) => files[path.relative('/w', file)] || undefined;
  return scriptProjectsIn(listing, text).map((project) => ({
    dir: path.relative('/w', project.dir) || '.',
    marker: project.marker,
    ...(project.entry ? { entry: path.relative('/w', project.entry) } : {}),
  }));
}

describe('TypeScript/JavaScript projects of a folder, and the file that loads each', () => {
  const cases: { name: string; files: Record<string, string>; projects: ReturnType<typeof projectsOf> }[] = [
    {
      name: 'include: a file of the folder it names, not a config script beside tsconfig.json that the project leaves out',
      files: { 'tsconfig.json': '{ "include": ["src"] }', 'vite.config.ts': '', 'src/b.ts': '', 'src/a.ts': '' },
      projects: [{ dir: '.', marker: 'tsconfig.json', entry: 'src/a.ts' }],
    },
    {
      name: 'include with wildcards: the part before the first wildcard',
      files: { 'tsconfig.json': '{ "include": ["lib/**/*.ts"] }', 'src/a.ts': '', 'lib/deep/z.ts': '' },
      projects: [{ dir: '.', marker: 'tsconfig.json', entry: 'lib/deep/z.ts' }],
    },
    {
      name: 'files: the first one listed that exists',
      files: { 'tsconfig.json': '{ "files": ["gone.ts", "main.ts"] }', 'a.ts': '', 'main.ts': '' },
      projects: [{ dir: '.', marker: 'tsconfig.json', entry: 'main.ts' }],
    },
    {
      name: 'comments and trailing commas in tsconfig.json are read',
      files: { 'tsconfig.json': '{\n  // where the code is\n  "include": ["app",],\n}', 'a.ts': '', 'app/x.ts': '' },
      projects: [{ dir: '.', marker: 'tsconfig.json', entry: 'app/x.ts' }],
    },
    {
      name: 'an unreadable tsconfig.json: its folder is still a project, searched from the top',
      files: { 'tsconfig.json': '{ "include": [', 'a.ts': '' },
      projects: [{ dir: '.', marker: 'tsconfig.json', entry: 'a.ts' }],
    },
    {
      name: 'a nested tsconfig.json is a project of its own, and its files do not load the outer one',
      files: {
        'tsconfig.json': '{}',
        'packages/app/tsconfig.json': '{}',
        'packages/app/index.ts': '',
        'tools/run.ts': '',
      },
      projects: [
        { dir: '.', marker: 'tsconfig.json', entry: 'tools/run.ts' },
        { dir: 'packages/app', marker: 'tsconfig.json', entry: 'packages/app/index.ts' },
      ],
    },
    {
      name: 'declaration files are not opened; JavaScript only with allowJs',
      files: { 'tsconfig.json': '{}', 'a.d.ts': '', 'b.js': '', 'sub/c.ts': '' },
      projects: [{ dir: '.', marker: 'tsconfig.json', entry: 'sub/c.ts' }],
    },
    {
      name: 'allowJs: JavaScript files are the project’s too',
      files: { 'tsconfig.json': '{ "compilerOptions": { "allowJs": true } }', 'b.js': '', 'sub/c.ts': '' },
      projects: [{ dir: '.', marker: 'tsconfig.json', entry: 'b.js' }],
    },
    {
      name: 'jsconfig.json: JavaScript files; tsconfig.json wins in the same folder',
      files: {
        'web/jsconfig.json': '{}',
        'web/app.js': '',
        'both/tsconfig.json': '{}',
        'both/jsconfig.json': '{}',
        'both/x.ts': '',
      },
      projects: [
        { dir: 'both', marker: 'tsconfig.json', entry: 'both/x.ts' },
        { dir: 'web', marker: 'jsconfig.json', entry: 'web/app.js' },
      ],
    },
    {
      name: 'package.json outside every config: the outermost one, its main first',
      files: {
        'package.json': '{ "main": "lib/index.js" }',
        'a.js': '',
        'lib/index.js': '',
        'lib/inner/package.json': '{}',
      },
      projects: [{ dir: '.', marker: 'package.json', entry: 'lib/index.js' }],
    },
    {
      name: 'package.json above or beside a config is no project of its own',
      files: {
        'package.json': '{}',
        'root.js': '',
        'packages/a/package.json': '{}',
        'packages/a/tsconfig.json': '{}',
        'packages/a/a.ts': '',
      },
      projects: [{ dir: 'packages/a', marker: 'tsconfig.json', entry: 'packages/a/a.ts' }],
    },
    {
      name: 'a project with no source file within reach has no entry',
      files: { 'tsconfig.json': '{ "include": ["src"] }', 'other/a.ts': '' },
      projects: [{ dir: '.', marker: 'tsconfig.json' }],
    },
    {
      name: 'no marker: no project',
      files: { 'a.ts': '', 'b.js': '' },
      projects: [],
    },
  ];
  for (const { name, files, projects } of cases) {
    it(name, () => assert.deepEqual(projectsOf(files), projects));
  }

  it('the static part of an include pattern', () => {
    const table: [string, string][] = [
      ['src', 'src'],
      ['src/**/*', 'src'],
      ['./src/*.ts', './src'],
      ['**/*', ''],
      ['src/{a,b}/x.ts', 'src'],
      ['src\\lib\\*', 'src/lib'],
    ];
    for (const [pattern, prefix] of table) assert.equal(staticPrefix(pattern), prefix, pattern);
  });

  it('on disk: dependency and build folders are not searched', async () => {
    await withTempDir('script-projects-', async (dir) => {
      const write = (file: string, text = '') => {
        fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        fs.writeFileSync(path.join(dir, file), text);
      };
      write('node_modules/dep/tsconfig.json', '{}');
      write('node_modules/dep/index.ts');
      write('out/tsconfig.json', '{}');
      write('tsconfig.json', '{ "include": ["src"] }');
      write('src/main.ts');
      assert.deepEqual(findScriptProjects(dir), [
        { dir, marker: 'tsconfig.json', entry: path.join(dir, 'src', 'main.ts') },
      ]);
    });
  });
});
