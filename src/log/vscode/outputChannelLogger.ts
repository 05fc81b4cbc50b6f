import * as vscode from 'vscode';
import { describeError, Logger } from '../logger';

export const LOG_CHANNEL_NAME = 'Agent Live Tools';

/** Backs the engine Logger with one `LogOutputChannel`; the channel's own level filter applies. */
export function createOutputChannelLogger(context: vscode.ExtensionContext): Logger {
  const channel = vscode.window.createOutputChannel(LOG_CHANNEL_NAME, { log: true });
  context.subscriptions.push(channel);
  const line = (tag: string, message: string): string => `[${tag}] ${message}`;
  return {
    trace: (tag, message) => channel.trace(line(tag, message)),
    debug: (tag, message) => channel.debug(line(tag, message)),
    info: (tag, message) => channel.info(line(tag, message)),
    warn: (tag, message) => channel.warn(line(tag, message)),
    error: (tag, message, error) =>
      channel.error(line(tag, error === undefined ? message : `${message}: ${describeError(error)}`)),
  };
}
