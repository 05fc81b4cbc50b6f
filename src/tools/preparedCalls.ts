/**
 * The plans shown to the human, kept until the call runs: a write tool plans once, when its
 * confirmation is built (in `prepareInvocation`, or before a worker's question card), and `invoke`
 * applies that very plan — the writer then refuses it whole if a file changed in between. Calls are
 * matched by tool and input (the editor gives `prepareInvocation` nothing else); a call prepared again
 * replaces the plan kept for it, so a plan the human denied (its call never runs) is never applied
 * to a later call. Bounded in count and age.
 */
import { ModelFacingError } from '../platform/modelFacingError';

/** What preparing a call gave: its plan, or the error `invoke` is to answer with. */
export type PreparedCall = { readonly plan: unknown } | { readonly error: unknown };

/** How long a plan waits for its call: as long as a confirmation may stay open. */
export const PREPARED_CALL_TTL_MS = 60 * 60 * 1000;
/** At most this many plans wait at once (the oldest go first). */
export const PREPARED_CALLS_CAP = 200;

/** A call whose plan was not kept: nobody was shown what it would write. */
export class CallNotPrepared extends ModelFacingError {
  constructor(readonly tool: string) {
    super(
      `this ${tool} call was not prepared (its confirmation was not shown, or an identical call ran with its plan); nothing was written. Call it again.`,
    );
    this.name = 'CallNotPrepared';
  }
}

export class PreparedCalls {
  private readonly waiting = new Map<string, { readonly at: number; readonly call: PreparedCall }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Keeps the plan for this call, replacing one kept for the same call before. */
  put(tool: string, input: unknown, call: PreparedCall): void {
    this.expire();
    const key = keyOf(tool, input);
    this.waiting.delete(key);
    this.waiting.set(key, { at: this.now(), call });
    if (this.waiting.size > PREPARED_CALLS_CAP) this.waiting.delete(this.waiting.keys().next().value as string);
  }

  /** The plan kept for this call, taken; undefined when none (prepared too long ago, or never). */
  take(tool: string, input: unknown): PreparedCall | undefined {
    this.expire();
    const key = keyOf(tool, input);
    const entry = this.waiting.get(key);
    this.waiting.delete(key);
    return entry?.call;
  }

  get size(): number {
    return this.waiting.size;
  }

  private expire(): void {
    const oldest = this.now() - PREPARED_CALL_TTL_MS;
    for (const [key, entry] of this.waiting) {
      if (entry.at >= oldest) break;
      this.waiting.delete(key);
    }
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
