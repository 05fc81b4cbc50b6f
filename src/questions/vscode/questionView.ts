/**
 * The Agent Questions panel: a webview view showing the board's pending cards and its history.
 * Model-written text reaches the page only as JSON data that the page's script inserts as text
 * (media/questions.js); the page runs under a CSP allowing our own script by nonce and nothing else.
 *
 * "Attached" means: a webview client of this view acknowledged rendering the card. A card that is
 * not acknowledged within the attach time fails the call (no human can see it).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { boundedTimeout } from '../../async/timers';
import { Card, CardOutcome, QuestionBoard, Reply, SettledCard } from '../questionBoard';

export const QUESTIONS_VIEW_ID = 'liveTools.questions';

/** Messages from the page. */
type PageMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'shown'; readonly numbers: readonly number[] }
  | { readonly type: 'answer'; readonly number: number; readonly picked: readonly number[]; readonly text?: string }
  | { readonly type: 'skip'; readonly number: number };

export interface CardView {
  readonly number: number;
  readonly kind: 'question' | 'approval';
  readonly asker?: string;
  readonly question: string;
  readonly context?: string;
  readonly options: ReadonlyArray<{ readonly label: string; readonly description?: string }>;
  readonly allowFreeText: boolean;
  readonly multiSelect: boolean;
  readonly expiresAt: number;
}

export interface HistoryView {
  readonly number: number;
  readonly question: string;
  readonly outcome: string;
}

export class QuestionView implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  /** Cards a client has rendered, and who waits for that. */
  private readonly shown = new Set<number>();
  private readonly shownWaiters = new Map<number, () => void>();
  /** Why the last answer was not taken, shown on the card. */
  private readonly problems = new Map<number, string>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly board: QuestionBoard,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    // A hidden view loses its page; showing it again loads a new one, which must acknowledge anew.
    this.shown.clear();
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(this.extensionUri, 'media'),
        vscode.Uri.joinPath(this.extensionUri, 'dist', 'media'),
      ],
    };
    view.webview.html = this.html(view.webview);
    view.webview.onDidReceiveMessage((message: PageMessage) => this.receive(message));
    view.onDidChangeVisibility(() => {
      if (!view.visible) this.shown.clear();
    });
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
      this.shown.clear();
    });
  }

  /** Shows the panel (without taking focus from the editor) and resolves when a client rendered the card. */
  async present(card: Card, attachMs: number): Promise<boolean> {
    const rendered = new Promise<boolean>((resolve) => {
      if (this.shown.has(card.number)) return resolve(true);
      const timer = boundedTimeout(() => {
        this.shownWaiters.delete(card.number);
        resolve(false);
      }, attachMs);
      this.shownWaiters.set(card.number, () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (this.view) {
      this.view.show(true);
      this.post();
    } else {
      await vscode.commands.executeCommand(`${QUESTIONS_VIEW_ID}.focus`, { preserveFocus: true });
    }
    return rendered;
  }

  /** Sends the board to the page (after every change). */
  post(): void {
    void this.view?.webview.postMessage({
      type: 'state',
      pending: this.board.pending.map(cardView).map((card) => ({ ...card, problem: this.problems.get(card.number) })),
      history: this.board.history.map(historyView),
    });
  }

  private receive(message: PageMessage): void {
    switch (message.type) {
      case 'ready':
        this.post();
        break;
      case 'shown':
        for (const number of message.numbers) {
          this.shown.add(number);
          this.shownWaiters.get(number)?.();
          this.shownWaiters.delete(number);
        }
        break;
      case 'answer': {
        const reply: Reply = {
          picked: Array.isArray(message.picked) ? message.picked.map(Number) : [],
          text: typeof message.text === 'string' ? message.text : undefined,
        };
        const problem = this.board.answer(Number(message.number), reply);
        if (problem) this.problems.set(Number(message.number), problem);
        else this.problems.delete(Number(message.number));
        this.post();
        break;
      }
      case 'skip':
        this.board.skip(Number(message.number));
        break;
    }
  }

  private html(webview: vscode.Webview): string {
    const nonce = randomBytes(16).toString('base64');
    const media = (...parts: string[]) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, ...parts)).toString();
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; font-src ${webview.cspSource}; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media('dist', 'media', 'codicon.css')}">
<link rel="stylesheet" href="${media('media', 'questions.css')}">
<title>Agent Questions</title>
</head>
<body>
<main id="root" aria-live="polite"><p class="empty">No questions from the agent.</p></main>
<script nonce="${nonce}" src="${media('media', 'questions.js')}"></script>
</body>
</html>`;
  }
}

function cardView(card: Card): CardView {
  return {
    number: card.number,
    kind: card.kind ?? 'question',
    asker: card.asker,
    question: card.question,
    context: card.context,
    options: card.options,
    allowFreeText: card.allowFreeText,
    multiSelect: card.multiSelect,
    expiresAt: card.expiresAt,
  };
}

function historyView({ card, outcome }: SettledCard): HistoryView {
  return { number: card.number, question: card.question, outcome: outcomeSummary(outcome) };
}

function outcomeSummary(outcome: CardOutcome): string {
  switch (outcome.kind) {
    case 'answered':
      return [outcome.labels.join(', '), outcome.text ? `“${outcome.text}”` : ''].filter(Boolean).join(' · ');
    case 'skipped':
      return 'skipped';
    case 'expired':
      return 'expired';
    case 'cancelled':
      return 'withdrawn';
    case 'unattached':
      return 'not shown';
  }
}
