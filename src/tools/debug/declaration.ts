/** The debug tool's input and declaration: drive a debugger through the editor. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { ToolName } from '../../platform/toolNames';
import { DEBUG_ADAPTERS } from '../../debug/adapters';
import { VALUE_CAP, WATCH_CAP } from '../../debug/answers';
import { MAX_LINE, MAX_WAIT_SECONDS } from '../schemaParts';

export const DEBUG_OPS = [
  'adapters',
  'status',
  'breakpoints',
  'launch',
  'attach',
  'continue',
  'pause',
  'step_over',
  'step_in',
  'step_out',
  'threads',
  'stack',
  'scopes',
  'variables',
  'evaluate',
  'watch',
  'output',
  'terminate',
] as const;

export type DebugOp = (typeof DEBUG_OPS)[number];

export interface DebugInput {
  op: DebugOp;
  file?: string;
  /** Plain 1-based numbers, or objects with a condition or log message; the engine takes both. */
  lines?: Array<
    | number
    | {
        line: number;
        line_text?: string;
        symbol?: string;
        condition?: string;
        hit_condition?: string;
        log_message?: string;
      }
  >;
  exceptions?: string[];
  program?: string;
  args?: string[];
  adapter?: (typeof DEBUG_ADAPTERS)[number];
  cwd?: string;
  env?: Record<string, string>;
  configuration?: string;
  test?: string;
  port?: number;
  pid?: number;
  thread_id?: number;
  frame_id?: number;
  reference?: number;
  expression?: string;
  expressions?: string[];
  timeout_seconds?: number;
}

export const debugDeclaration: ToolDeclaration = {
  name: ToolName.debug,
  tier: 'exec',
  resource: 'debug',
  displayName: 'Debug',
  icon: '$(debug-alt)',
  userDescription: 'Drive a debugger: breakpoints, launch, step, stack, variables, evaluate, output.',
  modelDescription: [
    'Drive a real debugger through the editor (the human sees the session in the Debug view). One session per ' +
      'conversation; calls run one at a time. Typical flow: `breakpoints` (file + lines) → `launch` (program) → it ' +
      'answers where the program stopped (file:line and the line text) → `stack` / `scopes` / `variables` / `evaluate` → ' +
      '`step_over` / `step_in` / `step_out` / `continue` (each returns the next stop, or the exit) → `terminate`.',
    'Ops: adapters (which debuggers can start here, and why not), status, breakpoints (file, lines: [4, 9] or [{line, line_text?, ' +
      'condition?, hit_condition?, log_message?}], an empty list clears the file; or exceptions: e.g. ["raised"] / ["uncaught"]), launch (program, ' +
      'args, optional adapter, cwd, env, or configuration = a launch.json name; or test = one test, run by its runner), attach (port, or pid), continue, pause, ' +
      'step_over, step_in, step_out, threads, stack (thread_id?, 30 frames), scopes (frame_id), variables (reference; 50 ' +
      'children, values cut at 400 characters), evaluate (expression, frame_id?), watch (expressions: evaluated in the top frame ' +
      'and shown with every stop from now on; [] clears), output (stdout/stderr since the last call), terminate. ' +
      'Once a session runs, `breakpoints` says of each whether the adapter bound it, moved it (where) or not (its reason), ' +
      'and every stop and the exit name those it did not bind.',
    "The adapter follows the program: .py debugpy (the project's .venv/venv Python first), .go delve, .js/.ts the " +
      "editor's JavaScript debugger, a native executable lldb (build it with -g first), .dart dart. A session ends by " +
      'itself after 30 minutes.',
    'Debug one test: `breakpoints` in the code under test, then launch with test and program = the test file: pytest ' +
      '(test name, -k expression or node id file::name) under debugpy, go test (TestName or TestName/sub; program = ' +
      "a file of the package) under delve, Node's runner (node:test), jest, mocha or vitest (as package.json's test " +
      'script runs them) under js-debug, cargo test (test name or module::name; builds the tests first) under lldb.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      op: { type: 'string', enum: DEBUG_OPS, description: 'What to do.' },
      file: { type: 'string', description: 'breakpoints: the source file, relative to the workspace folder.' },
      lines: {
        type: 'array',
        description:
          'breakpoints: the lines of `file` to stop at (1-based), e.g. [4, 9], or objects, e.g. [{"line": 4, "line_text": "total += price", "condition": "i > 2"}]: give line_text (or symbol) so an edit since you read the file cannot move the breakpoint onto another statement; an empty list clears the file.',
        items: {
          anyOf: [
            { type: 'integer', minimum: 1, maximum: MAX_LINE, description: '1-based line.' },
            {
              type: 'object',
              properties: {
                line: { type: 'integer', minimum: 1, maximum: MAX_LINE, description: '1-based line.' },
                line_text: {
                  type: 'string',
                  minLength: 1,
                  description:
                    'Text you expect on that line: if the file changed, the breakpoint goes to the nearest line holding it (and the answer says so).',
                },
                symbol: {
                  type: 'string',
                  minLength: 1,
                  description: 'An identifier you expect on that line, used like line_text.',
                },
                condition: { type: 'string', description: 'Stop only when this expression is true.' },
                hit_condition: {
                  type: 'string',
                  description: 'Stop by hit count, as the debugger reads it, e.g. ">= 3" or "5".',
                },
                log_message: { type: 'string', description: 'Log this (with {expressions}) instead of stopping.' },
              },
              required: ['line'],
              additionalProperties: false,
            },
          ],
        },
      },
      exceptions: {
        type: 'array',
        items: { type: 'string' },
        description:
          'breakpoints: exception filters of the adapter (debugpy: raised, uncaught, userUnhandled; js: all, uncaught); set before launch they apply from the start; empty clears.',
      },
      program: {
        type: 'string',
        description: 'launch: the program (source file or executable), relative to the workspace folder.',
      },
      args: { type: 'array', items: { type: 'string' }, description: "launch: the program's arguments." },
      adapter: {
        type: 'string',
        enum: DEBUG_ADAPTERS,
        description: "launch/attach: the debugger, when the program's extension does not say.",
      },
      cwd: {
        type: 'string',
        description:
          "launch: working directory (default: the program's folder); attach: the project folder (debugpy runs from its .venv).",
      },
      env: {
        type: 'object',
        additionalProperties: { type: 'string' },
        description: 'launch: extra environment variables, as {"NAME": "value"} (values are strings).',
      },
      configuration: {
        type: 'string',
        description: 'launch: the name of a configuration in .vscode/launch.json, instead of program.',
      },
      test: {
        type: 'string',
        minLength: 1,
        description:
          'launch: one test to run under its runner, e.g. "test_total" (with program = the test file), "tests/test_app.py::test_total", "TestTotal", "tests::adds_up". args are added to the runner\'s.',
      },
      port: { type: 'integer', minimum: 1, description: 'attach: the debug port to connect to.' },
      pid: {
        type: 'integer',
        minimum: 1,
        description: 'attach: the process id, where the adapter supports it (lldb, delve).',
      },
      thread_id: { type: 'integer', description: 'The thread (default: the one that stopped).' },
      frame_id: { type: 'integer', description: 'scopes/evaluate: the frame (#N in `stack`; default: the top frame).' },
      reference: {
        type: 'integer',
        description: 'variables: a reference from `scopes` or from a variable with children.',
      },
      expression: { type: 'string', description: "evaluate: an expression in the program's language." },
      expressions: {
        type: 'array',
        maxItems: WATCH_CAP,
        items: { type: 'string', minLength: 1, maxLength: 1000 },
        description: `watch: expressions evaluated in the top frame at every stop and shown with it (at most ${WATCH_CAP}, values cut at ${VALUE_CAP} characters); replaces the earlier ones, [] clears.`,
      },
      timeout_seconds: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_WAIT_SECONDS,
        description: `launch/continue/steps/pause: how long to wait for the program to stop (default 60 for launch, 20 otherwise; at most ${MAX_WAIT_SECONDS}, and never past the session's time to live). A Rust test's build is bounded by it too (default 300).`,
      },
    },
    required: ['op'],
    additionalProperties: false,
  },
};
