/**
 * Thread ids as the model sees them, in a family of sessions whose adapters number threads each on
 * their own: a session's thread keeps its own id unless another session's thread has it, then gets
 * the next free one. Each id the model gives maps back to its session and that session's id, so a
 * thread id of one session is never sent to another.
 */

/** A thread as its adapter knows it: the session (a family member's id; undefined: the only one) and its id there. */
export interface SessionThread {
  readonly session: string | undefined;
  readonly threadId: number;
}

/** Threads kept at most: an adapter that makes threads without end cannot grow the map past it. */
const THREADS_KEPT = 10_000;

export class ThreadIds {
  private readonly shownByKey = new Map<string, number>();
  private readonly threads = new Map<number, SessionThread>();
  private highest = 0;

  /** The id the model sees for a session's thread. */
  shown(session: string | undefined, threadId: number): number {
    const key = `${session ?? ''}\n${threadId}`;
    const known = this.shownByKey.get(key);
    if (known !== undefined) return known;
    const id = this.threads.has(threadId) ? this.highest + 1 : threadId;
    if (this.threads.size >= THREADS_KEPT) this.forgetOldest();
    this.shownByKey.set(key, id);
    this.threads.set(id, { session, threadId });
    this.highest = Math.max(this.highest, id);
    return id;
  }

  /** The session and thread of an id the model gave; an id never shown is taken as the default session's own. */
  of(id: number): SessionThread {
    return this.threads.get(id) ?? { session: undefined, threadId: id };
  }

  private forgetOldest(): void {
    const [id, thread] = this.threads.entries().next().value as [number, SessionThread];
    this.threads.delete(id);
    this.shownByKey.delete(`${thread.session ?? ''}\n${thread.threadId}`);
  }
}
