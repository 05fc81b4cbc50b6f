/**
 * Whether an answer is known to reflect the current text. Every lsp answer states it:
 * "OK" only when the check really ran; otherwise still indexing, timed out, or not verified.
 */

export type Freshness =
  | { readonly kind: 'verified' }
  | { readonly kind: 'timed_out'; readonly seconds: number; readonly waitingFor: string }
  | { readonly kind: 'not_verified'; readonly why: string };

export function freshnessNote(freshness: Freshness): string {
  switch (freshness.kind) {
    case 'verified':
      return 'checked on the current text';
    case 'timed_out':
      return `timed out after ${freshness.seconds} s waiting for ${freshness.waitingFor}; not verified`;
    case 'not_verified':
      return `not verified: ${freshness.why}`;
  }
}

/**
 * Remembers, per document, when its text last changed and when diagnostics were last
 * published for it. Diagnostics published after the last change describe the current text.
 */
export class DiagnosticsClock {
  private readonly changedAt = new Map<string, number>();
  private readonly publishedAt = new Map<string, number>();
  private tick = 0;

  noteChanged(uri: string): void {
    this.changedAt.set(uri, ++this.tick);
  }

  notePublished(uri: string): void {
    this.publishedAt.set(uri, ++this.tick);
  }

  forget(uri: string): void {
    this.changedAt.delete(uri);
    this.publishedAt.delete(uri);
  }

  isFresh(uri: string): boolean {
    const published = this.publishedAt.get(uri);
    return published !== undefined && published > (this.changedAt.get(uri) ?? 0);
  }
}
