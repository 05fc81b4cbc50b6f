/**
 * Settings that name a command, a binary or an interpreter to run are the user's alone: a workspace
 * (a cloned repository's `.vscode/settings.json`) must not choose what this extension executes. They
 * are declared `"scope": "machine"`, which keeps them out of workspace settings in the Settings UI, and
 * read here from the user's settings only, whatever a workspace file holds.
 */
import * as vscode from 'vscode';
import { Setting } from '../settings';
import { maskSecrets, SECRET_PATTERNS, SecretPattern, userSecretPatterns } from '../secretMask';

/** The user's value of a setting (or its default); workspace and folder values are ignored. */
export function userSettingValue<T>(key: Setting): T | undefined {
  const inspected = vscode.workspace.getConfiguration().inspect<T>(key);
  return inspected?.globalValue ?? inspected?.defaultValue;
}

/**
 * The secret patterns to mask in what a model reads now, or undefined when the user turned masking
 * off. Both settings are the user's: a workspace can neither turn masking off nor add patterns.
 */
export function secretPatternsNow(): SecretPattern[] | undefined {
  if (!secretSettings) {
    // Read once per change of the settings: every debug and eval answer passes through here.
    secretSettingsWatch ??= vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('liveTools.secrets')) secretSettings = undefined;
    });
    const masked = userSettingValue<boolean>(Setting.secretsMask) !== false;
    const extra = userSecretPatterns(userSettingValue<string[]>(Setting.secretsPatterns) ?? []).patterns;
    secretSettings = { patterns: masked ? [...SECRET_PATTERNS, ...extra] : undefined };
  }
  return secretSettings.patterns;
}

let secretSettings: { readonly patterns: SecretPattern[] | undefined } | undefined;
/** Lives as long as the extension host: one listener, registered at the first read. */
let secretSettingsWatch: vscode.Disposable | undefined;

/** `text` as a model may read it: secrets masked unless the user turned that off. */
export function withSecretsMasked(text: string): string {
  const patterns = secretPatternsNow();
  return patterns ? maskSecrets(text, patterns) : text;
}
