/** The test tool's input and declaration: run the project's tests through its own runner. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { ToolName } from '../../platform/toolNames';
import { MAX_WAIT_SECONDS } from '../schemaParts';

/** Defaults: the whole run's limit, and the silence after which a run counts as hung. */
export const DEFAULT_TIMEOUT_SECONDS = 600;
export const DEFAULT_IDLE_SECONDS = 60;

export interface TestInput {
  files?: string[];
  tests?: string[];
  timeout_seconds?: number;
  idle_seconds?: number;
  mode?: 'run' | 'coverage';
}

export const testDeclaration: ToolDeclaration = {
  name: ToolName.test,
  tier: 'exec',
  resource: 'workspace',
  displayName: 'Test',
  icon: '$(beaker)',
  userDescription: "Run the project's tests through its own runner; results also show in Test Explorer.",
  modelDescription: [
    "Run tests through the project's own runner (found as debug's launch test finds it: pytest for .py; for .js/.ts " +
      "the runner package.json's test script names — mocha, jest or vitest (vitest run, never watch mode) — else Node's " +
      'built-in runner (node --test); go test for .go (the packages of the files); cargo test for .rs (built first, then ' +
      'each test executable; doc tests are not run)). ' +
      'Give files (test files) and/or tests (pytest node ids such as tests/test_a.py::test_x or names; Node test names; ' +
      "mocha/jest/vitest full titles, describe names and test name joined by spaces, matched literally as the runner's name pattern; " +
      'Go TestX or TestX/sub, matched exactly; Rust module::name paths, matched exactly, or a part of a name); ' +
      "neither runs every test the runner finds. Tests that do not compile are answered with the compiler's errors.",
    'Answers the counts (passed, failed, skipped, errors), then each failure: its id, file:line of the failing ' +
      "assertion in the test's code, expected/actual as the runner reports them, the test's own stack frames, the " +
      'tail of its output, and the next step (debug with test: <id>). A run silent for idle_seconds (default 60) is ' +
      'ended and answered as hung, naming the test that was running when the runner says. The human sees each run in Test Explorer.',
    'mode: "coverage" also measures which lines the tests run (coverage.py for pytest, which the project\'s Python must have; ' +
      "Node's --experimental-test-coverage; go test -coverprofile, in statements; not cargo, mocha, jest or vitest) and answers, " +
      "per file of the workspace, lines run of lines measured and the lines never run; the human sees it in the editor's coverage view.",
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      files: {
        type: 'array',
        maxItems: 200,
        items: { type: 'string', minLength: 1, maxLength: 4096 },
        description: 'Test files, relative to the workspace folder.',
      },
      tests: {
        type: 'array',
        maxItems: 200,
        items: { type: 'string', minLength: 1, maxLength: 1000 },
        description:
          'Tests to run: pytest node ids (tests/test_a.py::test_x, tests/test_a.py::TestA::test_y) or names (pytest -k), Node test names, mocha/jest/vitest full titles (cart sums the prices) or a part of one, Go test names (TestX, TestX/sub), Rust test paths (tests::adds_up).',
      },
      timeout_seconds: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_WAIT_SECONDS,
        description: `The whole run's limit (default ${DEFAULT_TIMEOUT_SECONDS}); then it is ended.`,
      },
      idle_seconds: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_WAIT_SECONDS,
        description: `A run with no output for this long is ended as hung (default ${DEFAULT_IDLE_SECONDS}).`,
      },
      mode: {
        type: 'string',
        enum: ['run', 'coverage'],
        description: 'run (default): the tests only; coverage: also which lines they run, per file.',
      },
    },
    additionalProperties: false,
  },
};
