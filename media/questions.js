// The Agent Questions page. Everything the agent wrote arrives as data and is inserted with
// textContent, never as markup. Keys act on the card that has focus (click or Tab into it), never on
// one that arrived meanwhile: 1–9 pick an option, Enter submits, Escape skips (Enter in the text box
// submits, Shift+Enter adds a line). A re-render keeps the focus on the same card.
(function () {
  const vscode = acquireVsCodeApi();
  const root = document.getElementById('root');
  /** Per card number: the picked option indices and the typed text, kept across re-renders. */
  const drafts = new Map();
  let pending = [];

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function icon(name) {
    const node = el('span', `codicon codicon-${name}`);
    node.setAttribute('aria-hidden', 'true');
    return node;
  }

  function draftOf(number) {
    if (!drafts.has(number)) drafts.set(number, { picked: [], text: '' });
    return drafts.get(number);
  }

  function pick(card, index) {
    if (index < 0 || index >= card.options.length) return;
    const draft = draftOf(card.number);
    if (card.multiSelect) {
      draft.picked = draft.picked.includes(index) ? draft.picked.filter((i) => i !== index) : [...draft.picked, index];
    } else {
      draft.picked = [index];
    }
    render();
  }

  function submit(card) {
    const draft = draftOf(card.number);
    vscode.postMessage({ type: 'answer', number: card.number, picked: draft.picked, text: draft.text });
  }

  function skip(card) {
    vscode.postMessage({ type: 'skip', number: card.number });
  }

  function renderCard(card, first) {
    const draft = draftOf(card.number);
    // An approval is this extension's own card (its mark and title); a question is an agent's, and says who asks.
    const approval = card.kind === 'approval';
    const section = el('section', `card ${first ? 'active' : 'queued'} ${approval ? 'approval' : 'question-card'}`);
    section.dataset.number = String(card.number);
    section.dataset.kind = approval ? 'approval' : 'question';
    // Focusable, so a click anywhere on the card gives it the keys.
    section.tabIndex = 0;
    const title = approval ? 'Approval' : 'Question';
    section.setAttribute(
      'aria-label',
      `${title} #${card.number}${card.asker ? ` ${approval ? 'for' : 'from'} ${card.asker}` : ''}`,
    );
    const header = el('header', 'card-header');
    header.append(icon(approval ? 'shield' : 'question'), el('span', 'number', `#${card.number}`));
    if (!first) header.append(el('span', 'badge', 'queued'));
    header.append(el('span', 'kind', title));
    if (card.asker) header.append(el('span', 'asker', `${approval ? 'for' : 'from'} ${card.asker}`));
    section.append(header);
    section.append(el('p', 'question', card.question));
    if (card.context) section.append(el('p', 'context', card.context));

    if (card.options.length > 0) {
      const list = el('div', 'options');
      list.setAttribute('role', card.multiSelect ? 'group' : 'radiogroup');
      card.options.forEach((option, index) => {
        const selected = draft.picked.includes(index);
        const button = el('button', selected ? 'option selected' : 'option');
        button.type = 'button';
        button.setAttribute('role', card.multiSelect ? 'checkbox' : 'radio');
        button.setAttribute('aria-checked', String(selected));
        button.dataset.index = String(index);
        button.append(
          icon(
            card.multiSelect
              ? selected
                ? 'pass-filled'
                : 'circle-large-outline'
              : selected
                ? 'circle-large-filled'
                : 'circle-large-outline',
          ),
        );
        if (index < 9) button.append(el('kbd', 'key', String(index + 1)));
        const words = el('span', 'option-words');
        words.append(el('span', 'label', option.label));
        if (option.description) words.append(el('span', 'description', option.description));
        button.append(words);
        button.addEventListener('click', () => pick(card, index));
        list.append(button);
      });
      section.append(list);
    }

    if (card.allowFreeText) {
      const box = el('textarea', 'free-text');
      box.rows = 2;
      box.placeholder = card.options.length > 0 ? 'Or type an answer…' : 'Type your answer…';
      box.setAttribute('aria-label', `Answer to question #${card.number}`);
      box.value = draft.text;
      box.addEventListener('input', () => (draft.text = box.value));
      box.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && !event.shiftKey) {
          event.preventDefault();
          event.stopPropagation();
          submit(card);
        } else if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          skip(card);
        }
      });
      section.append(box);
    }

    if (card.problem) section.append(el('p', 'problem', card.problem));

    const actions = el('div', 'actions');
    const send = el('button', 'submit');
    send.type = 'button';
    send.append(icon('send'), el('span', '', 'Submit'));
    send.title = 'Submit (Enter)';
    send.addEventListener('click', () => submit(card));
    const pass = el('button', 'skip secondary');
    pass.type = 'button';
    pass.append(el('span', '', 'Skip'));
    pass.title = 'Skip: the agent proceeds on its own assumption (Escape)';
    pass.addEventListener('click', () => skip(card));
    actions.append(send, pass);
    section.append(actions);
    return section;
  }

  function renderHistory(history) {
    const section = el('section', 'history');
    section.append(el('h2', '', 'Answered'));
    const list = el('ol', '');
    for (const item of history) {
      const row = el('li', 'history-item');
      row.append(
        el('span', 'number', `#${item.number}`),
        el('span', 'question', item.question),
        el('span', 'outcome', item.outcome),
      );
      list.append(row);
    }
    section.append(list);
    return section;
  }

  let history = [];

  function render() {
    const active = document.activeElement;
    const focused = active && active.closest ? active.closest('.card')?.dataset.number : undefined;
    const inText = !!active && active.classList.contains('free-text');
    root.replaceChildren();
    if (pending.length === 0) root.append(el('p', 'empty', 'No questions from the agent.'));
    pending.forEach((card, index) => root.append(renderCard(card, index === 0)));
    if (history.length > 0) root.append(renderHistory(history));
    // The focus stays with its card; a card that is gone takes it along (the next card is not picked for the human).
    const section = focused ? root.querySelector(`.card[data-number="${focused}"]`) : null;
    if (section) (inText ? (section.querySelector('.free-text') ?? section) : section).focus({ preventScroll: true });
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (!message || message.type !== 'state') return;
    pending = Array.isArray(message.pending) ? message.pending : [];
    history = Array.isArray(message.history) ? message.history : [];
    for (const number of [...drafts.keys()]) if (!pending.some((card) => card.number === number)) drafts.delete(number);
    render();
    vscode.postMessage({ type: 'shown', numbers: pending.map((card) => card.number) });
  });

  document.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLTextAreaElement) return;
    const section = event.target instanceof Element ? event.target.closest('.card') : null;
    const card = section ? pending.find((candidate) => String(candidate.number) === section.dataset.number) : undefined;
    if (!card) return;
    if (/^[1-9]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      pick(card, Number(event.key) - 1);
    } else if (
      event.key === 'Enter' &&
      !(event.target instanceof HTMLButtonElement && !event.target.classList.contains('option'))
    ) {
      // On an option Enter submits too (Space picks it); Submit and Skip keep their own Enter.
      event.preventDefault();
      submit(card);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      skip(card);
    }
  });

  vscode.postMessage({ type: 'ready' });
})();
