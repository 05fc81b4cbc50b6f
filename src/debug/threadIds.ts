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

/** Frame ids and variables references kept at most (the oldest forgotten first). */
const HANDLES_KEPT = 10_000;

/**
 * Which session of a family answered each frame id (`frame`) and variables reference (`reference`):
 * js-debug numbers them across its sessions but each session answers only for its own, so a request
 * naming one without a thread goes to the session it came from.
 */
export class HandleOwners {
  private readonly owners = new Map<string, string | undefined>();

  note(kind: 'frame' | 'reference', ids: Iterable<number>, session: string | undefined): void {
    for (const id of ids) {
      if (!(id > 0)) continue;
      const key = `${kind}:${id}`;
      this.owners.delete(key);
      this.owners.set(key, session);
      if (this.owners.size > HANDLES_KEPT) this.owners.delete(this.owners.keys().next().value as string);
    }
  }

  /** The session the id came from, when it is known (`session` undefined: the default one). */
  ownerOf(kind: 'frame' | 'reference', id: number): { readonly session: string | undefined } | undefined {
    const key = `${kind}:${id}`;
    return this.owners.has(key) ? { session: this.owners.get(key) } : undefined;
  }
}
