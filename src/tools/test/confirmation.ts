/** The `test` tool's confirmation card: the exact command lines that run, where, and what changes (no `vscode`). */
import { shellWord } from '../../project/testRunners';
import { commandLineOf, coverageCommandLineOf, TestPlan } from '../../testing/testPlan';
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
      commandLineOf(plan),
      ...(after ? ['# then, to write the coverage report:', after] : []),
      '```',
      `- working directory: \`${plan.root}\``,
      `- environment: ${env.length ? env.map(([key, value]) => `\`${key}=${shellWord(value)}\``).join(', ') + ' set; the rest is the editor’s' : 'the editor’s, unchanged'}`,
      `- the report${plan.coverage ? 's go' : ' goes'} to a temporary folder, removed after; the run is ended after ${input.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS} s, or ${input.idle_seconds ?? DEFAULT_IDLE_SECONDS} s without output`,
    ].join('\n'),
  };
}
