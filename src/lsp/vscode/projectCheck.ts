import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError, Logger } from '../../log/logger';
import { ProcessNotStarted, runToCompletion } from '../../process/childProcess';
import { describeResolution } from '../../project/binaryResolution';
import { realPathOf, underOpenedFolder } from '../../project/projectRoots';
import { containingFolder } from '../../workspace/paths';
import { LineTexts } from '../../workspace/vscode/lineTexts';
import { pathOf, workspaceFolderPaths } from '../../workspace/vscode/workspaceFolders';
import { DiagnosticItem } from '../format';
import { CheckerOutputUnreadable, parseCheckerOutput } from '../supervisor/checkers';
import { projectCheckAnswer, RootCheck } from '../supervisor/supervisorAnswers';
import { LanguageServerSupervisor, supervisorSettings } from './languageServerSupervisor';

/** One checker about to run: what, where, and the executable it resolved to. */
export interface CheckerRun {
  readonly language: string;
  /** Absolute. */
  readonly root: string;
  /** As the answer shows it (relative to its workspace folder). */
  readonly shownRoot: string;
  readonly commandLine: string;
  readonly executable: string;
}

/**
 * Whether a checker may run: undefined when it may, else why not (one clause). A checker runs the
 * project's code (cargo's build scripts, a checker installed in the project): `lsp` is read tier,
 * so the first run of each is the human's to allow.
 */
export type CheckerGate = (run: CheckerRun, token: vscode.CancellationToken) => Promise<string | undefined>;

/**
 * `lsp diagnostics "*"`: runs each project root's own checker (chosen by its root markers,
 * overridable by settings), one after another, each once the gate lets it, with progress in the
 * status bar, cancellation and a time bound that stops the checker's process group; parses its
 * output into diagnostics.
 */
export async function projectCheck(
  supervisor: LanguageServerSupervisor,
  log: Logger,
  gate: CheckerGate,
  token: vscode.CancellationToken,
): Promise<string> {
  const { roots } = supervisor.plan();
  const timeoutSeconds = supervisorSettings().checkTimeoutSeconds;
  const checks: RootCheck[] = [];
  const items: DiagnosticItem[] = [];
  const texts = new LineTexts();
  const folders = workspaceFolderPaths();
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: 'Agent Live Tools: checking the project' },
    async (progress) => {
      for (const plan of roots) {
        const relativeRoot = path.relative(plan.folder, plan.root.dir) || '.';
        const language = plan.entry.name;
        const checker = plan.entry.checker;
        if (token.isCancellationRequested) {
          checks.push({ language, root: relativeRoot, run: { kind: 'not_run', why: 'cancelled before it started' } });
          continue;
        }
        if (!checker) {
          checks.push({
            language,
            root: relativeRoot,
            run: { kind: 'not_run', why: `no project checker is known for ${language}` },
          });
          continue;
        }
        const resolution = supervisor.resolve(checker.command, plan.root.dir, plan.folder);
        if (!resolution.found) {
          const short = (dir: string) => path.relative(plan.folder, dir) || '.';
          checks.push({
            language,
            root: relativeRoot,
            run: { kind: 'not_run', why: describeResolution(resolution, short) },
          });
          continue;
        }
        const commandLine = [checker.command, ...checker.args].join(' ');
        const refused = await gate(
          { language, root: plan.root.dir, shownRoot: relativeRoot, commandLine, executable: resolution.path },
          token,
        );
        if (refused) {
          checks.push({ language, root: relativeRoot, run: { kind: 'not_run', why: refused } });
          continue;
        }
        progress.report({ message: `${commandLine} in ${relativeRoot}` });
        log.info('lsp.check', `${resolution.path} ${checker.args.join(' ')} in ${plan.root.dir}`);
        try {
          const result = await runToCompletion(resolution.path, checker.args, {
            cwd: plan.root.dir,
            timeoutSeconds,
            onCancel: (cancel) => token.onCancellationRequested(cancel),
          });
          if (result.stoppedBecause === 'timeout') {
            checks.push({
              language,
              root: relativeRoot,
              run: { kind: 'timed_out', commandLine, seconds: timeoutSeconds },
            });
            continue;
          }
          if (result.stoppedBecause === 'cancelled') {
            checks.push({ language, root: relativeRoot, run: { kind: 'cancelled', commandLine } });
            continue;
          }
          const findings = parseCheckerOutput(checker.format, result.stdout, result.stderr, plan.root.dir);
          if (findings.length === 0 && result.exitCode !== 0 && checker.format !== 'pyright-json') {
            const why = `exit ${result.exitCode} without a problem it could read: ${(result.stderr || result.stdout).trim().split('\n').slice(0, 3).join(' / ').slice(0, 300)}`;
            checks.push({ language, root: relativeRoot, run: { kind: 'failed', commandLine, why } });
            continue;
          }
          let count = 0;
          const realFolder = realPathOf(plan.folder);
          for (const finding of findings) {
            const file = underOpenedFolder(finding.file, plan.folder, realFolder);
            if (!containingFolder(folders, file)) continue; // e.g. a dependency's file
            const uri = vscode.Uri.file(file);
            count++;
            items.push({
              path: pathOf(uri),
              line: finding.line,
              text: texts.text(uri, finding.line - 1),
              severity: finding.severity,
              message: finding.message,
              source: finding.source,
              code: finding.code,
            });
          }
          checks.push({
            language,
            root: relativeRoot,
            run: { kind: 'ran', commandLine, seconds: result.seconds, exitCode: result.exitCode, count },
          });
        } catch (error) {
          const why =
            error instanceof ProcessNotStarted || error instanceof CheckerOutputUnreadable
              ? error.message
              : describeError(error);
          checks.push({ language, root: relativeRoot, run: { kind: 'failed', commandLine, why } });
        }
      }
    },
  );
  if (token.isCancellationRequested) throw new vscode.CancellationError();
  return projectCheckAnswer(checks, items);
}
