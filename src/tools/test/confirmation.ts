/** The `test` tool's confirmation card: the exact command lines that run, where, and what changes (no `vscode`). */
import { shellWord } from '../../project/testRunners';
import { commandLineOf, coverageCommandLineOf, eachExecutableLine, TestPlan } from '../../testing/testPlan';
import { DEFAULT_IDLE_SECONDS, DEFAULT_TIMEOUT_SECONDS, TestInput } from './declaration';

export function testConfirmation(plan: TestPlan, input: TestInput): { title: string; message: string } {
  const env = Object.entries(plan.env);
  const after = coverageCommandLineOf(plan);
  return {
    title: `Run ${plan.runner} tests${plan.coverage ? ' with coverage' : ''}?`,
    message: [
      `Run the project's tests with ${plan.runner}${plan.coverage ? `, coverage measured by ${plan.coverage.measuredBy}` : ''}:`,
      '',
      '```sh',
      plan.eachExecutable ? commandLineOf({ command: plan.command, args: plan.args }) : commandLineOf(plan),
      ...(after ? ['# then, to write the coverage report:', after] : []),
      '```',
      `- working directory: \`${plan.root}\``,
      `- environment: ${env.length ? env.map(([key, value]) => `\`${key}=${shellWord(value)}\``).join(', ') + ' set; the rest is the editor’s' : 'the editor’s, unchanged'}`,
      ...(plan.eachExecutable ? eachExecutableLines(plan.eachExecutable) : []),
      plan.report === 'go-json' || plan.report === 'cargo-json'
        ? `- results are read from its JSON output${plan.coverage ? ', the coverage report from a temporary folder, removed after' : ''}; the run is ended after ${input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS} s, or ${input.idle_seconds ?? DEFAULT_IDLE_SECONDS} s without output${plan.eachExecutable ? ' (while tests run)' : ''}`
        : `- the report${plan.coverage ? 's go' : ' goes'} to a temporary folder, removed after; the run is ended after ${input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS} s, or ${input.idle_seconds ?? DEFAULT_IDLE_SECONDS} s without output`,
    ].join('\n'),
  };
}

/** cargo: the build above lists the test executables; each runs so. */
function eachExecutableLines(each: NonNullable<TestPlan['eachExecutable']>): string[] {
  const env = Object.entries(each.env).map(([key, value]) => `\`${key}=${shellWord(value)}\``);
  return [
    '',
    'That only builds the tests. Then each test executable the build lists runs, in its package’s folder:',
    '',
    '```sh',
    eachExecutableLine(each),
    '```',
    `- environment: ${env.join(', ')} set for the executables only (libtest's JSON output is unstable-gated), the rest is the editor’s`,
    '- doc tests are not run',
  ];
}
