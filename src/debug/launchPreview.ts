/**
 * What a `debug` call will do, in the words the human reads before allowing it (markdown). For a
 * launch that is what runs: the program, or the launch.json configuration's program or command as
 * the file has it, its arguments, working directory and every environment variable — those that
 * change which code loads called out by name — and the tasks it runs first.
 */
import * as path from 'node:path';
import { adapterForProgram } from './adapters';
import type { DebugHost } from './debugHost';
import type { AttachRequest, LaunchRequest } from './launchPlan';
import { chooseTestRun, shellWord, testCommandLine, TestRun } from './testLaunch';

type PreviewHost = Pick<DebugHost, 'namedConfiguration' | 'resolvePath' | 'display' | 'contextFor'>;

/** Environment variables that change which code a program loads or runs, and how. Matched case-insensitively. */
const RISKY_ENV: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(LD_PRELOAD|LD_AUDIT)$/i, 'loads a library into the program and every process it starts'],
  [/^LD_LIBRARY_PATH$/i, 'changes which shared libraries load'],
  [/^DYLD_/i, 'changes which libraries load (macOS)'],
  [/^NODE_OPTIONS$/i, 'passes options to Node, such as --require of any file'],
  [/^NODE_PATH$/i, 'changes where Node finds modules'],
  [/^(PYTHONPATH|PYTHONHOME|PYTHONUSERBASE)$/i, 'changes where Python imports modules from'],
  [/^PATH$/i, 'changes which executables run'],
  [/^(BASH_ENV|ENV)$/i, 'names a script every shell runs first'],
  [/^(PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB)$/i, 'changes what code Perl or Ruby loads'],
  [/^(JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS)$/i, 'passes options to every Java VM'],
  [/^GOFLAGS$/i, 'passes flags to the Go build (-toolexec runs any program)'],
  [/^GCONV_PATH$/i, 'loads character-set modules from a directory'],
];

/** Why an environment variable changes what code runs, or undefined for an ordinary one. */
export function envRisk(name: string): string | undefined {
  return RISKY_ENV.find(([pattern]) => pattern.test(name))?.[1];
}

/** Keys of a launch.json configuration that say what runs, in the order shown. */
const RUNS_KEYS = [
  'program',
  'module',
  'runtimeExecutable',
  'runtimeArgs',
  'python',
  'pythonPath',
  'command',
  'args',
  'processId',
  'pid',
  'port',
  'debugServer',
] as const;

/** What a launch will run: the program with its arguments, directory and environment, or the launch.json configuration. */
export function describeLaunch(request: LaunchRequest, host: PreviewHost): string {
  if (request.test !== undefined) return describeTest({ ...request, test: request.test }, host);
  return request.configuration ? describeConfiguration(request.configuration, host) : describeProgram(request, host);
}

export function describeAttach(request: AttachRequest): string {
  return `Attach the ${request.adapter ?? ''} debugger to ${request.port !== undefined ? `port ${request.port}` : `process ${request.pid}`}${request.cwd ? ` (project ${code(request.cwd)})` : ''}.`;
}

export function describeEvaluate(expression: string | undefined): string {
  return `Evaluate ${code(expression ?? '')} in the debugged program (it may run code there).`;
}

/** Watch expressions run in the program at every stop, as evaluate does. */
export function describeWatch(expressions: readonly string[] | undefined): string {
  if (!expressions?.length) return 'Clear the watch expressions.';
  return `Evaluate at every stop, in the debugged program (it may run code there): ${expressions.map(code).join(', ')}.`;
}

export const TERMINATE_PREVIEW = 'End the debug session and stop the program.';

/** Without a file, the call sets exception breakpoints only. */
export function describeBreakpoints(file: string | undefined, lines: readonly number[]): string {
  if (!file) return 'Set exception breakpoints.';
  return `Set breakpoints in ${code(file)} at lines ${lines.join(', ') || '(none: clear them)'}.`;
}

/** Any other op (they only read, or move the program on). */
export function describeOp(op: string): string {
  return `Debugger: ${op.replace('_', ' ')}.`;
}

function describeProgram(request: LaunchRequest, host: PreviewHost): string {
  const given = request.program ?? '?';
  let program: string | undefined;
  try {
    program = request.program ? host.resolvePath(request.program) : undefined;
  } catch {
    program = undefined;
  }
  const adapter = request.adapter ?? (program ? adapterForProgram(program)?.id : undefined) ?? 'matching';
  const env = Object.entries(request.env ?? {});
  const lines = [`Start ${code(given)} under the ${adapter} debugger.`];
  lines.push(...warning(env));
  lines.push(`- arguments: ${request.args?.length ? request.args.map(code).join(' ') : 'none'}`);
  lines.push(
    `- working directory: ${request.cwd ? code(request.cwd) : program ? `${code(host.display(path.dirname(program)))} (the program's folder)` : "the program's folder"}`,
  );
  lines.push(...environment(env, "the editor's"));
  return lines.join('\n');
}

/** The runner's command line as the launch will run it (chosen the same way, without starting anything). */
function describeTest(request: LaunchRequest & { readonly test: string }, host: PreviewHost): string {
  let run: TestRun;
  try {
    const program = request.program ? host.resolvePath(request.program) : undefined;
    const cwd = request.cwd ? host.resolvePath(request.cwd) : undefined;
    const { folder } = host.contextFor(program ?? (cwd ? path.join(cwd, 'test') : undefined));
    run = chooseTestRun({ test: request.test, program, adapter: request.adapter, cwd }, folder);
  } catch (error) {
    return `Debug the test ${code(request.test)}. It will be refused: ${error instanceof Error ? error.message : String(error)}`;
  }
  const env = Object.entries(request.env ?? {});
  // Quoted as a shell would need them: ["a b"] and ["a", "b"] must not look the same.
  const args = request.args?.length ? ` ${request.args.map(shellWord).join(' ')}` : '';
  const lines = [
    `Debug the test ${code(run.test)} under the ${run.adapter} debugger: ${code(testCommandLine(run) + args)}`,
  ];
  lines.push(...warning(env));
  if (run.runner === 'cargo test')
    lines.push(
      "- first builds the package's tests with `cargo test --no-run` (build scripts and procedural macros run) and lists each test binary's tests (`--list`) to find the one",
    );
  if (run.runner === 'go test') lines.push("- delve builds the package's test binary first");
  lines.push(`- working directory: ${code(host.display(run.root) || '.')}`);
  lines.push(...environment(env, "the editor's"));
  return lines.join('\n');
}

function describeConfiguration(name: string, host: PreviewHost): string {
  const configuration = host.namedConfiguration(name);
  if (!configuration)
    return `Start the debug configuration **${escapeMarkdown(name)}** from launch.json. No configuration of that name was found: the call will be refused.`;
  const env = configurationEnv(configuration.env);
  const lines = [
    `Start the debug configuration **${escapeMarkdown(name)}** from launch.json (type ${code(String(configuration.type ?? '?'))}, request ${code(String(configuration.request ?? '?'))}). As the file has it:`,
  ];
  lines.push(...warning(env));
  const runs = RUNS_KEYS.filter((key) => configuration[key] !== undefined);
  if (!runs.some((key) => key !== 'args'))
    lines.push('- program: none named (the adapter decides what runs; see the whole configuration below)');
  for (const key of runs) lines.push(`- ${key}: ${shown(configuration[key])}`);
  lines.push(
    `- working directory: ${configuration.cwd !== undefined ? shown(configuration.cwd) : "not set (the adapter's default)"}`,
  );
  lines.push(...environment(env, "the editor's"));
  if (configuration.envFile !== undefined)
    lines.push(`- environment file: ${shown(configuration.envFile)} (its variables are added too)`);
  if (configuration.preLaunchTask !== undefined)
    lines.push(`- first runs the task ${shown(configuration.preLaunchTask)} (preLaunchTask)`);
  if (configuration.postDebugTask !== undefined)
    lines.push(`- afterwards runs the task ${shown(configuration.postDebugTask)} (postDebugTask)`);
  lines.push('', 'The whole configuration:', fenced(JSON.stringify(configuration, null, 2), 'json'));
  return lines.join('\n');
}

/** A configuration's `env`: an object (most adapters) or `K=V` strings (lldb). */
function configurationEnv(env: unknown): Array<[string, string]> {
  if (Array.isArray(env)) {
    return env.map((entry) => {
      const text = typeof entry === 'string' ? entry : JSON.stringify(entry);
      const equals = text.indexOf('=');
      return equals === -1 ? [text, ''] : [text.slice(0, equals), text.slice(equals + 1)];
    });
  }
  if (env && typeof env === 'object')
    return Object.entries(env).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]);
  return [];
}

function warning(env: ReadonlyArray<readonly [string, string]>): string[] {
  const risky = env.filter(([name]) => envRisk(name));
  if (risky.length === 0) return [];
  return [`**Warning:** the environment sets ${risky.map(([name]) => `${code(name)} (${envRisk(name)})`).join(', ')}.`];
}

function environment(env: ReadonlyArray<readonly [string, string]>, base: string): string[] {
  if (env.length === 0) return [`- environment: ${base}, nothing added`];
  return [
    `- environment: ${base}, plus ${env.length} variable${env.length === 1 ? '' : 's'}:`,
    ...env.map(([name, value]) => {
      const risk = envRisk(name);
      return `  - ${risk ? '⚠ ' : ''}${code(name)} = ${value === '' ? '(empty)' : code(value)}${risk ? ` — **${risk}**` : ''}`;
    }),
  ];
}

function shown(value: unknown): string {
  if (typeof value === 'string') return code(value);
  if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    return value.length ? value.map(code).join(' ') : 'none';
  return code(JSON.stringify(value));
}

/** Inline code that no text can break out of: control characters spelled out, a fence longer than any backtick run. */
export function code(text: string): string {
  const visible = text.replace(/[\u0000-\u001f\u007f]/g, (char) =>
    char === '\n' ? '\\n' : char === '\t' ? '\\t' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const fence = '`'.repeat(longestBacktickRun(visible) + 1);
  const pad = visible.startsWith('`') || visible.endsWith('`') || visible.trim() === '' ? ' ' : '';
  return `${fence}${pad}${visible}${pad}${fence}`;
}

function fenced(text: string, language: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, '\\$&').replace(/[\r\n]+/g, ' ');
}
