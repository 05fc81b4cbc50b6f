/**
 * `ask_user` end to end in the real browser: the extension host invokes the tool, the harness's
 * Playwright finds the card inside the Agent Questions webview (outer `iframe.webview.ready`, content
 * in its `iframe#active-frame`), clicks, types and presses keys as a person would, and the tool's
 * result is checked. Also expiry, no human attached, cancellation, the queue, history, and
 * hostile text staying inert.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { browser, hasBrowser } from './support/browser';
import { invokeText, setSetting } from './support/tools';

const CARD_FRAMES = ['iframe.webview.ready', 'iframe#active-frame'];
const inCard = { frames: CARD_FRAMES };

const ask = (input: object, token?: vscode.CancellationToken) => invokeText('ask_user', input, token);

/** The visible text of the first waiting card (waits until it shows `expected`). */
async function cardText(expected: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { text } = await browser({ op: 'text', selector: '.card.active', ...inCard });
    if (text?.includes(expected)) return text;
    if (Date.now() > deadline) throw new Error(`the card never showed "${expected}"; it shows: ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('ask_user tool', function () {
  this.timeout(90_000);

  before(function () {
    if (!hasBrowser()) this.skip();
  });

  afterEach(async () => {
    await setSetting('liveTools.askUser.timeoutMinutes', undefined);
    await setSetting('liveTools.askUser.attachSeconds', undefined);
  });

  it('with no human attached (the panel cannot render) the call fails at once instead of waiting', async () => {
    // The panel has not been shown yet in this window; its page is made unloadable, so no client can render a card.
    await browser({ op: 'block', url: '**/webview/browser/pre/**' });
    // Above a real first render here (~3 s for a cold webview), so only the block makes it fail.
    await setSetting('liveTools.askUser.attachSeconds', 8);
    try {
      const started = Date.now();
      const answer = await ask({ question: 'Is anyone there?' });
      assert.ok(Date.now() - started < 15_000, `failed promptly, took ${Date.now() - started} ms`);
      assert.match(
        answer,
        /^Error: no human is attached to answer question #\d+: no editor window showed the card within 8 s .*Proceed on an assumption you state in your reply, and do not ask this again\.$/,
      );
    } finally {
      await browser({ op: 'unblock', url: '**/webview/browser/pre/**' });
      // The broken page is dropped with the panel; the next card loads a fresh one.
      await vscode.commands.executeCommand('workbench.action.closePanel');
    }
  });

  it('a picked option is the answer; the card shows the question and context as written', async () => {
    const pending = ask({
      question: 'Which database should the cache use?',
      context: 'The migration script depends on it.',
      options: [
        { label: 'SQLite', description: 'one file, no server' },
        { label: 'Postgres', description: 'the existing server' },
        { label: 'Redis' },
      ],
    });
    const text = await cardText('Which database should the cache use?');
    assert.match(text, /The migration script depends on it\./);
    assert.match(text, /SQLite[\s\S]*one file, no server[\s\S]*Postgres[\s\S]*Redis/);
    await browser({ op: 'click', selector: '.card.active .option', text: 'Postgres', ...inCard });
    await browser({ op: 'click', selector: '.card.active .submit', ...inCard });
    assert.match(await pending, /^The user answered question #\d+: chose "Postgres"\.$/);
  });

  it('typed text is the answer (Enter submits)', async () => {
    const pending = ask({ question: 'What port should the dev server use?', allow_free_text: true });
    await cardText('What port');
    await browser({ op: 'click', selector: '.card.active .free-text', ...inCard });
    await browser({ op: 'type', text: 'use 8080 <b>not</b> 3000' });
    await browser({ op: 'press', key: 'Enter' });
    assert.match(await pending, /^The user answered question #\d+: wrote: "use 8080 <b>not<\/b> 3000"\.$/);
  });

  it('several options are picked with number keys and submitted with Enter', async () => {
    const pending = ask({
      question: 'Which checks should run before commit?',
      multi_select: true,
      options: [{ label: 'lint' }, { label: 'unit tests' }, { label: 'integration tests' }],
    });
    await cardText('Which checks');
    await browser({ op: 'click', selector: '.card.active .question', ...inCard });
    await browser({ op: 'press', key: '1' });
    await browser({ op: 'press', key: '3' });
    await browser({ op: 'press', key: 'Enter' });
    assert.match(await pending, /^The user answered question #\d+: chose "lint", "integration tests"\.$/);
  });

  it('a skip (Escape) is a success telling the agent to proceed on an assumption; an expiry is an error saying the same', async () => {
    const skipped = ask({ question: 'Rename the package too?', options: [{ label: 'yes' }, { label: 'no' }] });
    await cardText('Rename the package too?');
    await browser({ op: 'click', selector: '.card.active .question', ...inCard });
    await browser({ op: 'press', key: 'Escape' });
    assert.match(
      await skipped,
      /^The user skipped question #\d+ without answering\. Proceed on an assumption you state in your reply, and do not ask this again\.$/,
    );

    await setSetting('liveTools.askUser.timeoutMinutes', 0.03);
    const started = Date.now();
    const expired = await ask({ question: 'Nobody will answer this one' });
    assert.ok(Date.now() - started >= 1_500, 'it waited for the timeout');
    assert.match(
      expired,
      /^Error: question #\d+ expired: no answer within 2 s\. Proceed on an assumption you state in your reply, and do not ask this again\.$/,
    );
  });

  it('cards queue visibly and are numbered; answered ones stay in the history', async () => {
    const first = ask({ question: 'First question in the queue', options: [{ label: 'one' }] });
    const second = ask({ question: 'Second question in the queue', options: [{ label: 'two' }] });
    await cardText('First question in the queue');
    const queued = await browser({ op: 'text', selector: '.card.queued', ...inCard });
    // The status bar names the waiting cards, so a human looking elsewhere sees them.
    const status = await browser({ op: 'text', selector: '.statusbar-item:has-text("Agent asks")' });
    assert.match(status.text ?? '', /Agent asks #\d+, #\d+/);
    assert.match(queued.text ?? '', /#\d+\s*queued[\s\S]*Second question in the queue/);
    await browser({ op: 'click', selector: '.card.active .option', text: 'one', ...inCard });
    await browser({ op: 'click', selector: '.card.active .submit', ...inCard });
    const firstAnswer = await first;
    await cardText('Second question in the queue');
    await browser({ op: 'click', selector: '.card.active .option', text: 'two', ...inCard });
    await browser({ op: 'click', selector: '.card.active .submit', ...inCard });
    const secondAnswer = await second;
    const [firstNumber, secondNumber] = [firstAnswer, secondAnswer].map((answer) => Number(/#(\d+)/.exec(answer)?.[1]));
    assert.equal(secondNumber, firstNumber + 1);
    const history = await browser({ op: 'text', selector: '.history', ...inCard });
    assert.match(
      history.text ?? '',
      new RegExp(
        `#${secondNumber}\\s*Second question in the queue\\s*two[\\s\\S]*#${firstNumber}\\s*First question in the queue\\s*one`,
      ),
    );
  });

  it('keys act on the card that has focus, never on a card that arrived meanwhile', async () => {
    const first = ask({ question: 'Answered with the mouse', options: [{ label: 'alpha' }] });
    await cardText('Answered with the mouse');
    await browser({ op: 'click', selector: '.card.active .option', text: 'alpha', ...inCard });
    await browser({ op: 'click', selector: '.card.active .submit', ...inCard });
    assert.match(await first, /chose "alpha"/);
    // A card arrives while the human's hands are on the keys: their keys must not answer it.
    const second = ask({ question: 'Arrived meanwhile', options: [{ label: 'beta' }] });
    await cardText('Arrived meanwhile');
    await browser({ op: 'press', key: '1' });
    await browser({ op: 'press', key: 'Enter' });
    const raced = await Promise.race([
      second.then(() => 'answered'),
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 1_500)),
    ]);
    assert.equal(raced, 'still waiting', 'keys pressed before the human focused the new card answered it');
    await browser({ op: 'click', selector: '.card.active .question', ...inCard });
    await browser({ op: 'press', key: '1' });
    await browser({ op: 'press', key: 'Enter' });
    assert.match(await second, /chose "beta"/);
  });

  it('a cancelled call withdraws its card', async () => {
    const source = new vscode.CancellationTokenSource();
    const pending = ask({ question: 'This one is withdrawn' }, source.token);
    await cardText('This one is withdrawn');
    source.cancel();
    await assert.rejects(
      pending,
      (error: Error) => error instanceof vscode.CancellationError || /cancel/i.test(error.message),
    );
    source.dispose();
    const deadline = Date.now() + 10_000;
    while ((await browser({ op: 'count', selector: '.card', ...inCard })).count !== 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await browser({ op: 'count', selector: '.card', ...inCard })).count, 0);
  });

  it('a card names who asks when it is not the chat, and an agent cannot draw an approval card', async () => {
    // What an approval card says, asked by an agent: it stays a question, marked as one, naming its asker.
    const pending = ask({
      question: 'A Python cell wants to run write: Create file?',
      options: [{ label: 'Allow' }, { label: 'Deny' }],
    });
    const text = await cardText('wants to run write');
    assert.match(text, /^#\d+\s*Question\s*from another extension/i, text);
    assert.equal((await browser({ op: 'count', selector: '.card.active[data-kind="question"]', ...inCard })).count, 1);
    assert.equal((await browser({ op: 'count', selector: '.card.approval', ...inCard })).count, 0);
    await browser({ op: 'click', selector: '.card.active .option', text: 'Deny', ...inCard });
    await browser({ op: 'click', selector: '.card.active .submit', ...inCard });
    assert.match(await pending, /Deny/);
  });

  it('hostile text in question, context and options is shown as text; long text and many options stay usable', async () => {
    const payload = '<img src=x onerror="document.body.dataset.pwned=1"><script>document.body.dataset.pwned=1</script>';
    const options = Array.from({ length: 40 }, (_, index) => ({
      label: index === 0 ? `<b onmouseover=alert(1)>bold</b>` : `choice ${index + 1}`,
      description: index === 1 ? payload : undefined,
    }));
    const pending = ask({
      question: `${payload} ${'very long question '.repeat(500)}`,
      context: `</div>${payload}`,
      options,
    });
    await cardText('<img src=x onerror=');
    const html = (await browser({ op: 'html', selector: 'body', ...inCard })).text ?? '';
    assert.equal(
      (await browser({ op: 'count', selector: '.card img, .card script, .card b', ...inCard })).count,
      0,
      'no element was made from the text',
    );
    assert.doesNotMatch(html, /data-pwned/);
    assert.match(html, /&lt;img src=x onerror=/);
    assert.match(html, /&lt;\/div&gt;&lt;img/);
    await browser({ op: 'click', selector: '.card.active .option', text: '^\\d*choice 40$', ...inCard });
    await browser({ op: 'click', selector: '.card.active .submit', ...inCard });
    assert.match(await pending, /^The user answered question #\d+: chose "choice 40"\.$/);
  });
});
