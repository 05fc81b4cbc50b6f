/**
 * Conversation identity for per-conversation state (one debug session per conversation…).
 *
 * Measured in VS Code 1.139: inside a chat request, `LanguageModelToolInvocationOptions
 * .toolInvocationToken` is a frozen object `{ sessionResource: Uri }` (plus `workingDirectory`
 * when the session has one), where `sessionResource` is `vscode-chat-session://local/<id>` and
 * stays the same for every request and tool call of one chat session. Outside chat the token
 * is `undefined`; those invocations share one window-wide conversation.
 */
export const WINDOW_CONVERSATION = 'window';

export function conversationIdOf(toolInvocationToken: unknown): string {
  if (typeof toolInvocationToken !== 'object' || toolInvocationToken === null) return WINDOW_CONVERSATION;
  const session = (toolInvocationToken as { sessionResource?: unknown }).sessionResource;
  if (session === undefined || session === null) return WINDOW_CONVERSATION;
  const id = String(session);
  return id.length > 0 && id !== '[object Object]' ? id : WINDOW_CONVERSATION;
}
