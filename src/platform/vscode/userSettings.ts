/**
 * Settings that name a command, a binary or an interpreter to run are the user's alone: a workspace
 * (a cloned repository's `.vscode/settings.json`) must not choose what this extension executes. They
 * are declared `"scope": "machine"`, which keeps them out of workspace settings in the Settings UI, and
 * read here from the user's settings only, whatever a workspace file holds.
 */
import * as vscode from 'vscode';
import { Setting } from '../settings';

/** The user's value of a setting (or its default); workspace and folder values are ignored. */
export function userSettingValue<T>(key: Setting): T | undefined {
  const inspected = vscode.workspace.getConfiguration().inspect<T>(key);
  return inspected?.globalValue ?? inspected?.defaultValue;
}
