/**
 * The plans shown to the human, kept until the call runs: a write tool plans once, when its
 * confirmation is built (in `prepareInvocation`, or before a question card), and `invoke` applies
 * that very plan — the writer then refuses it whole if a file changed in between. Calls are matched
 * by tool and input (the editor gives `prepareInvocation` nothing else); identical calls queue in
 * order. Bounded in count and age: a plan never taken (the human denied it) is dropped.
 */

/** What preparing a call gave: its plan, or the error `invoke` is to answer with. */
export type PreparedCall = { readonly plan: unknown } | { readonly error: unknown };

/** How long a plan waits for its call: as long as a confirmation may stay open. */
export const PREPARED_CALL_TTL_MS = 60 * 60 * 1000;
/** At most this many plans wait at once (the oldest go first). */
export const PREPARED_CALLS_CAP = 200;

export class PreparedCalls {
  private readonly waiting: { readonly key: string; readonly at: number; readonly call: PreparedCall }[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  put(tool: string, input: unknown, call: PreparedCall): void {
    this.expire();
    this.waiting.push({ key: keyOf(tool, input), at: this.now(), call });
    if (this.waiting.length > PREPARED_CALLS_CAP) this.waiting.shift();
  }

  /** The oldest plan waiting for this call, taken; undefined when none (prepared too long ago, or never). */
  take(tool: string, input: unknown): PreparedCall | undefined {
    this.expire();
    const key = keyOf(tool, input);
    const index = this.waiting.findIndex((entry) => entry.key === key);
    return index === -1 ? undefined : this.waiting.splice(index, 1)[0].call;
  }

  get size(): number {
    return this.waiting.length;
  }

  private expire(): void {
    const oldest = this.now() - PREPARED_CALL_TTL_MS;
    while (this.waiting.length > 0 && this.waiting[0].at < oldest) this.waiting.shift();
  }
}

/** The tool and its input with keys sorted (the same call prepared and invoked may order keys differently). */
function keyOf(tool: string, input: unknown): string {
  return `${tool}\0${JSON.stringify(input, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : value,
  )}`;
}
