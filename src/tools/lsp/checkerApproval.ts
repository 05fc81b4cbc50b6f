/**
 * Who lets a project checker run (`lsp diagnostics "*"`): a checker runs the project's own code —
 * cargo check its build scripts and procedural macros, a checker installed in the project
 * (node_modules/.bin, .venv/bin) — so the first run of each (its root, its executable and command
 * line) is asked of the human on the approval card, naming the command and who asks; an allowed one
 * is remembered for the workspace. In an untrusted workspace none runs.
 */
import * as vscode from 'vscode';
import { Caller } from '../../platform/caller';
import { Approver } from '../../platform/vscode/approver';
import { CheckerGate } from '../../lsp/vscode/projectCheck';

/** Where the allowed checkers are remembered (workspace state). */
const ALLOWED_KEY = 'liveTools.checkersAllowed';

export function checkerGate(approver: Approver, memory: vscode.Memento, caller: Caller): CheckerGate {
  return async (run, token) => {
    if (!vscode.workspace.isTrusted)
      return "the workspace is not trusted, and a project checker runs the project's code (trust the workspace to check it)";
    const key = JSON.stringify([run.root, run.executable, run.commandLine]);
    const allowed = memory.get<string[]>(ALLOWED_KEY, []);
    if (allowed.includes(key)) return undefined;
    const yes = await approver.approve(
      {
        caller,
        tool: 'lsp',
        tier: 'exec',
        confirmation: {
          title: `Run the ${run.language} checker \`${run.commandLine}\` in ${run.shownRoot}?`,
          message:
            `\`${run.commandLine}\` (${run.executable}) checks the ${run.language} project at \`${run.shownRoot}\`. ` +
            "**It runs the project's own code**: cargo runs build scripts (build.rs) and procedural macros, and a checker " +
            "installed in the project (node_modules/.bin, .venv/bin) is itself the project's. Once allowed, this checker runs " +
            'here without asking again (for this workspace).',
        },
      },
      token,
    );
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    if (!yes)
      return "the human did not allow it (it runs the project's code); check single files with lsp diagnostics and a path instead";
    await memory.update(ALLOWED_KEY, [...allowed, key]);
    return undefined;
  };
}
