/**
 * Tool tiers decide visibility, not only approval: read = no side effect, write = changes
 * files, exec = starts or drives a process. A cap admits its own tier and those below it.
 */
export type Tier = 'read' | 'write' | 'exec';

export const TIERS: readonly Tier[] = ['read', 'write', 'exec'];

const rank: Record<Tier, number> = { read: 0, write: 1, exec: 2 };

export function tierWithinCap(tier: Tier, cap: Tier): boolean {
  return rank[tier] <= rank[cap];
}

/** write and exec tools ask the human before they run. */
export function tierNeedsConfirmation(tier: Tier): boolean {
  return tier !== 'read';
}
