/**
 * The question cards of `ask_user`: numbered (#1, #2…), pending ones queued in order, each settled
 * once — answered, skipped, expired, cancelled, or not shown because no human is attached — and a
 * short history of settled cards. What the agent reads for each outcome is `outcomeText`.
 */
import { boundedTimeout } from '../async/timers';

export interface QuestionOption {
  readonly label: string;
  readonly description?: string;
}

/**
 * What a card is: a question an agent asks (ask_user), or an approval of one call this extension asks
 * about (its own mark and title, which no ask_user card can have: an agent cannot draw one).
 */
export type CardKind = 'question' | 'approval';

export interface QuestionSpec {
  readonly kind?: CardKind;
  /** Who asks, one bounded line, when it is not the chat the human is in (an MCP client, a worker, a cell). */
  readonly asker?: string;
  readonly question: string;
  readonly context?: string;
  readonly options: readonly QuestionOption[];
  /** Typing is allowed (always, when there are no options). */
  readonly allowFreeText: boolean;
  readonly multiSelect: boolean;
}

export interface Card extends QuestionSpec {
  readonly number: number;
  readonly askedAt: number;
  readonly expiresAt: number;
}

export type CardOutcome =
  | { readonly kind: 'answered'; readonly labels: readonly string[]; readonly text?: string }
  | { readonly kind: 'skipped' }
  | { readonly kind: 'expired'; readonly afterMs: number }
  | { readonly kind: 'unattached'; readonly reason: string }
  | { readonly kind: 'cancelled' };

export interface SettledCard {
  readonly card: Card;
  readonly outcome: CardOutcome;
}

/** Settled cards kept for the panel's history. */
export const HISTORY_CAP = 10;

/** What the human sent for a card: the picked options' indices and any typed text. */
export interface Reply {
  readonly picked: readonly number[];
  readonly text?: string;
}

export class QuestionBoard {
  private nextNumber = 1;
  private readonly pendingCards: Card[] = [];
  private readonly settlers = new Map<number, (outcome: CardOutcome) => void>();
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly settledCards: SettledCard[] = [];

  constructor(private readonly onChange: () => void = () => undefined) {}

  get pending(): readonly Card[] {
    return this.pendingCards;
  }

  get history(): readonly SettledCard[] {
    return this.settledCards;
  }

  /** Puts a card up; the promise settles once, with whatever happens to it first. */
  ask(spec: QuestionSpec, timeoutMs: number, now = Date.now()): { card: Card; outcome: Promise<CardOutcome> } {
    const card: Card = {
      ...spec,
      allowFreeText: spec.allowFreeText || spec.options.length === 0,
      number: this.nextNumber++,
      askedAt: now,
      expiresAt: now + timeoutMs,
    };
    const outcome = new Promise<CardOutcome>((resolve) => this.settlers.set(card.number, resolve));
    this.pendingCards.push(card);
    this.timers.set(
      card.number,
      boundedTimeout(() => this.settle(card.number, { kind: 'expired', afterMs: timeoutMs }), timeoutMs),
    );
    this.onChange();
    return { card, outcome };
  }

  /** The human's answer; a string says why it was not taken (the card stays up). */
  answer(number: number, reply: Reply): string | undefined {
    const card = this.pendingCards.find((pending) => pending.number === number);
    if (!card) return `card #${number} is no longer waiting`;
    const picked = [...new Set(reply.picked)];
    if (picked.some((index) => !Number.isInteger(index) || index < 0 || index >= card.options.length))
      return 'an option that is not on the card was picked';
    if (picked.length > 1 && !card.multiSelect) return 'only one option can be picked';
    const text = card.allowFreeText ? reply.text?.trim() || undefined : undefined;
    if (picked.length === 0 && !text) return card.options.length > 0 ? 'pick an option first' : 'type an answer first';
    this.settle(number, {
      kind: 'answered',
      labels: picked.sort((a, b) => a - b).map((index) => card.options[index].label),
      text,
    });
    return undefined;
  }

  skip(number: number): void {
    this.settle(number, { kind: 'skipped' });
  }

  cancel(number: number): void {
    this.settle(number, { kind: 'cancelled' });
  }

  unattached(number: number, reason: string): void {
    this.settle(number, { kind: 'unattached', reason });
  }

  dispose(): void {
    for (const card of [...this.pendingCards]) this.cancel(card.number);
  }

  private settle(number: number, outcome: CardOutcome): void {
    const index = this.pendingCards.findIndex((card) => card.number === number);
    if (index === -1) return;
    const [card] = this.pendingCards.splice(index, 1);
    clearTimeout(this.timers.get(number));
    this.timers.delete(number);
    this.settlers.get(number)?.(outcome);
    this.settlers.delete(number);
    // Cards never shown to anyone are not history.
    if (outcome.kind !== 'unattached') {
      this.settledCards.unshift({ card, outcome });
      this.settledCards.length = Math.min(this.settledCards.length, HISTORY_CAP);
    }
    this.onChange();
  }
}

const PROCEED = 'Proceed on an assumption you state in your reply, and do not ask this again.';

/** What the agent reads; `error` outcomes start with "Error:". */
export function outcomeText(card: Card, outcome: CardOutcome): string {
  switch (outcome.kind) {
    case 'answered': {
      const picked =
        outcome.labels.length === 0
          ? ''
          : outcome.labels.length === 1
            ? `chose "${outcome.labels[0]}"`
            : `chose ${outcome.labels.map((label) => `"${label}"`).join(', ')}`;
      const typed = outcome.text === undefined ? '' : `${picked ? ' and ' : ''}wrote: ${JSON.stringify(outcome.text)}`;
      return `The user answered question #${card.number}: ${picked}${typed}.`;
    }
    case 'skipped':
      return `The user skipped question #${card.number} without answering. ${PROCEED}`;
    case 'expired':
      return `Error: question #${card.number} expired: no answer within ${formatDuration(outcome.afterMs)}. ${PROCEED}`;
    case 'unattached':
      return `Error: no human is attached to answer question #${card.number}: ${outcome.reason}. ${PROCEED}`;
    case 'cancelled':
      return `Question #${card.number} was withdrawn (the call was cancelled).`;
  }
}

function formatDuration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const minutes = ms / 60_000;
  return `${Number.isInteger(minutes) ? minutes : minutes.toFixed(1)} min`;
}
