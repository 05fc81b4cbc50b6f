/**
 * "Send the Paused State to the Agent": on a paused debug session of the human's (the Call Stack
 * view's session or thread, else the active one), the stop, the program's own frames and the top
 * frame's locals go to the chat as the human's message, credentials masked; from then on that
 * session is the one of theirs the agent's `debug` tool may read, and drive once they allow it.
 */
import * as vscode from 'vscode';
import { ADAPTERS } from '../adapters';
import { DebugController } from '../debugController';
import { DebugRefusal } from '../debugErrors';
import { VscodeDebugHost } from './vscodeDebugHost';

export const SEND_PAUSED_STATE_COMMAND = 'liveTools.sendPausedStateToAgent';

export function registerSendPausedState(
  context: vscode.ExtensionContext,
  host: VscodeDebugHost,
  controller: DebugController,
  mask: (text: string) => string,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(SEND_PAUSED_STATE_COMMAND, async (clicked?: unknown) => {
      const { session, threadId } = target(host, clicked);
      if (!session) {
        void vscode.window.showInformationMessage(
          'No debug session is paused. Stop your program at a breakpoint (or pause it), then send its state to the agent.',
        );
        return;
      }
      if (host.startedByTool(session)) {
        // Sending it would let other conversations read a session that is one conversation's own.
        void vscode.window.showInformationMessage(
          `The debug session "${session.name}" was started by an agent's debug tool: that agent already reads and drives it. Ask it in its own chat.`,
        );
        return;
      }
      let text: string;
      try {
        const { id, connection } = host.connectionFor(session);
        text = await controller.sendPausedState(id, connection, adapterOf(session), threadId);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        void vscode.window.showWarningMessage(
          error instanceof DebugRefusal ? why : `The paused state could not be read: ${why}`,
        );
        return;
      }
      // Sent in the chat's agent mode as the human's own message: they see exactly what the agent reads.
      await vscode.commands.executeCommand('workbench.action.chat.open', { mode: 'agent', query: mask(text) });
    }),
  );
}

/**
 * The session (and thread) the command is for: what the Call Stack view passes (a session's id, a
 * thread's number, or an object naming them), else the active session.
 */
function target(host: VscodeDebugHost, clicked: unknown): { session?: vscode.DebugSession; threadId?: number } {
  const active = vscode.debug.activeDebugSession;
  if (typeof clicked === 'string') return { session: host.sessionById(clicked) ?? active };
  if (typeof clicked === 'number') return { session: active, threadId: clicked };
  if (clicked && typeof clicked === 'object') {
    const { sessionId, threadId } = clicked as { sessionId?: unknown; threadId?: unknown };
    const session = typeof sessionId === 'string' ? host.sessionById(sessionId) : undefined;
    return { session: session ?? active, threadId: typeof threadId === 'number' ? threadId : undefined };
  }
  return { session: active };
}

/** Our adapter's id for our own debug types (`live-debugpy` → debugpy), else the session's type. */
function adapterOf(session: vscode.DebugSession): string {
  return ADAPTERS.find((spec) => spec.debugType === session.type)?.id ?? session.type;
}
