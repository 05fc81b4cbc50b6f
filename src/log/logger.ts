/**
 * The one logging interface that engines receive. The editor glue backs it with the
 * extension's LogOutputChannel; tests pass `nullLogger`. Every line carries a tag such as
 * `tool.invoke` or `lsp.request` so the channel can be filtered.
 */
export interface Logger {
  trace(tag: string, message: string): void;
  debug(tag: string, message: string): void;
  info(tag: string, message: string): void;
  warn(tag: string, message: string): void;
  error(tag: string, message: string, error?: unknown): void;
}

const ignore = (): void => undefined;

export const nullLogger: Logger = { trace: ignore, debug: ignore, info: ignore, warn: ignore, error: ignore };

/** A short, single-line description of a thrown value, for logs (never for tool results). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
