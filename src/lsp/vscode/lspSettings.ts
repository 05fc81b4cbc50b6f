import * as vscode from 'vscode';
import { Setting } from '../../platform/settings';

export interface LspSettings {
  /** Deadline for one request to a language server. */
  requestTimeoutSeconds(): number;
  /** How long a diagnostics answer waits for a server to publish. */
  diagnosticsWaitSeconds(): number;
}

/** Reads the settings at each call (they can change while the window lives). */
export function readLspSettings(): LspSettings {
  const read = (setting: Setting, fallback: number) =>
    vscode.workspace.getConfiguration().get<number>(setting, fallback);
  return {
    requestTimeoutSeconds: () => read(Setting.lspRequestTimeoutSeconds, 30),
    diagnosticsWaitSeconds: () => read(Setting.lspDiagnosticsWaitSeconds, 15),
  };
}
