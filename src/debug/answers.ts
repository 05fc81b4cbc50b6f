/**
 * The text a model reads from the `debug` tool, composed from plain values the controller
 * collected: where the program stopped and why, capped stacks and variables, output, the state
 * of the session, and every refusal's words. Paths go through `display` (workspace-relative).
 */
import * as path from 'node:path';
import type { BreakpointSpec } from './debugHost';
import type { ProgramState } from './debugSession';

export const STACK_CAP = 30;
export const VARIABLES_CAP = 50;
export const VALUE_CAP = 400;
/** Watch expressions a conversation may keep (each shown with every stop). */
export const WATCH_CAP = 10;
/** Breakpoints named in a stop's or an exit's note on those the adapter did not bind; the rest counted. */
export const UNBOUND_SHOWN = 5;
/** An adapter's message on a breakpoint, as quoted: one line, at most this many characters. */
const ADAPTER_MESSAGE_CAP = 120;
/** Output shown with the program's end or the session's last words: its tail. */
const LAST_OUTPUT_CHARS = 4000;

export type DisplayPath = (absolutePath: string) => string;

const NEXT_AT_STOP =
  'Next: "stack", "scopes"/"variables", "evaluate", "step_over", "step_in", "step_out", "continue" or "terminate".';

// ---------------------------------------------------------------------------------------
// The session and the program.

/** `running`, `stopped (breakpoint)`, `ended with exit code 1: the adapter exited`. */
export function describeState(state: ProgramState): string {
  if (state.kind === 'running') return 'running';
  if (state.kind === 'stopped') return `stopped (${state.reason})`;
  return `ended${state.exitCode !== undefined ? ` with exit code ${state.exitCode}` : ''}${state.reason ? `: ${state.reason}` : ''}`;
}

/** `25 min` from a minute up, `40 s` below. */
export function formatMinutes(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;
}

export interface StatusFacts {
  readonly session?: {
    readonly name: string;
    readonly adapter: string;
    readonly state: ProgramState;
    readonly remainingMs: number;
  };
  /** The note that the time to live ended the last session, when not yet said. */
  readonly expiredNote?: string;
  /** Files (as displayed) with the lines of their breakpoints; files without any are left out. */
  readonly breakpoints: ReadonlyArray<readonly [string, readonly BreakpointSpec[]]>;
  readonly exceptions: readonly string[];
  readonly watch: readonly string[];
}

export function statusAnswer(facts: StatusFacts): string {
  const lines: string[] = [];
  const session = facts.session;
  if (!session)
    lines.push(facts.expiredNote ?? 'No debug session in this conversation. Start one with op "launch" (or "attach").');
  else
    lines.push(
      `Session "${session.name}" (${session.adapter}), ${describeState(session.state)}; ends by itself in ${formatMinutes(Math.max(0, session.remainingMs))}.`,
    );
  const files = facts.breakpoints.filter(([, specs]) => specs.length > 0);
  lines.push(
    files.length === 0
      ? 'Breakpoints: none.'
      : `Breakpoints: ${files.map(([file, specs]) => `${file}: ${specs.map((spec) => spec.line).join(', ')}`).join('; ')}.`,
  );
  if (facts.exceptions.length > 0) lines.push(`Exception breakpoints: ${facts.exceptions.join(', ')}.`);
  if (facts.watch.length > 0) lines.push(`Watch: ${facts.watch.join(', ')}.`);
  return lines.join('\n');
}

/** One adapter's line of `adapters`: whether it can start, per project root (`where` names the root, or is empty). */
export function adapterAnswer(
  resolution: { ok: true; detail: string } | { ok: false; reason: string },
  where: string,
): string {
  return resolution.ok ? `can start${where} — ${resolution.detail}` : `cannot start${where} — ${resolution.reason}`;
}

export function adaptersAnswer(
  ids: readonly string[],
  lines: ReadonlyArray<readonly [string, readonly string[]]>,
): string {
  return `Debug adapters (${ids.join(', ')}; the program's extension picks one, or pass \`adapter\`):\n${lines.map(([id, answers]) => `- ${id}: ${answers.join('; ')}`).join('\n')}`;
}

/** ` for sub/dir/` when the project root is not the workspace folder itself. */
export function forRoot(root: string, folder: string, display: DisplayPath): string {
  return root === folder ? '' : ` for ${display(root)}/`;
}

// ---------------------------------------------------------------------------------------
// Breakpoints.

export function exceptionBreakpointsAnswer(filters: readonly string[], live: boolean, unknownNote: string): string {
  if (filters.length === 0) return 'Exception breakpoints cleared.';
  return `Exception breakpoints: ${filters.join(', ')}${live ? '' : ' (applied at launch)'}.${live ? unknownNote : ''}`;
}

/** What the adapter made of one breakpoint (its `setBreakpoints` answer and `breakpoint` events). */
export type Binding =
  | { readonly kind: 'verified' }
  | { readonly kind: 'moved'; readonly line: number; readonly text: string }
  | { readonly kind: 'unbound'; readonly message?: string }
  | { readonly kind: 'unanswered' };

/**
 * The file's breakpoints with each line's text; `sessionRuns` says whether they apply now or at
 * launch, and then each says what the adapter made of it.
 */
export function breakpointsAnswer(
  file: string,
  specs: ReadonlyArray<
    BreakpointSpec & { readonly text: string; readonly movedFrom?: number; readonly binding?: Binding }
  >,
  sessionRuns: boolean,
): string {
  if (specs.length === 0) return `Breakpoints in ${file} cleared.`;
  const lines = specs.map(
    (spec) =>
      `- line ${spec.line}: \`${spec.text}\`${spec.condition ? ` when ${spec.condition}` : ''}` +
      `${spec.hitCondition ? ` on hit ${spec.hitCondition}` : ''}${spec.logMessage ? ` logs ${JSON.stringify(spec.logMessage)}` : ''}` +
      `${spec.movedFrom !== undefined ? ` (moved from line ${spec.movedFrom}: the file changed, and its text is here now)` : ''}` +
      (spec.binding ? ` — ${describeBinding(spec.binding)}` : ''),
  );
  return `Breakpoints in ${file}:\n${lines.join('\n')}` + (sessionRuns ? '' : '\nThey apply when you launch.');
}

function describeBinding(binding: Binding): string {
  switch (binding.kind) {
    case 'verified':
      return 'bound';
    case 'moved':
      return `the adapter moved it to line ${binding.line}${binding.text ? `: \`${binding.text}\`` : ''}`;
    case 'unbound':
      return `not bound: ${binding.message ? clipMessage(binding.message) : 'the adapter gave no reason'}`;
    case 'unanswered':
      return 'the adapter has not answered for it yet';
  }
}

/** A breakpoint the adapter did not bind (or moved), as a stop or an exit names it. */
export interface BreakpointPlace {
  /** As displayed. */
  readonly file: string;
  readonly line: number;
  /** The adapter's reason (unbound), or where it put it (moved). */
  readonly message?: string;
  readonly movedTo?: number;
}

/**
 * `2 breakpoints never bound: app.py:12 (no code on this line), …` at an exit (`ended`), `not bound`
 * at a stop; at most UNBOUND_SHOWN named. Empty when there are none.
 */
export function unboundNote(unbound: readonly BreakpointPlace[], ended: boolean): string {
  if (unbound.length === 0) return '';
  const shown = unbound
    .slice(0, UNBOUND_SHOWN)
    .map((place) => `${place.file}:${place.line} (${place.message ? clipMessage(place.message) : 'no reason given'})`);
  const more = unbound.length > UNBOUND_SHOWN ? `, and ${unbound.length - UNBOUND_SHOWN} more` : '';
  return `${unbound.length} breakpoint${unbound.length === 1 ? '' : 's'} ${ended ? 'never bound' : 'not bound'}: ${shown.join(', ')}${more}.`;
}

/** `1 breakpoint moved by the adapter: app.py:3 → line 1.` Empty when none was. */
export function movedNote(moved: readonly BreakpointPlace[]): string {
  if (moved.length === 0) return '';
  const shown = moved.slice(0, UNBOUND_SHOWN).map((place) => `${place.file}:${place.line} → line ${place.movedTo}`);
  const more = moved.length > UNBOUND_SHOWN ? `, and ${moved.length - UNBOUND_SHOWN} more` : '';
  return `${moved.length} breakpoint${moved.length === 1 ? '' : 's'} moved by the adapter: ${shown.join(', ')}${more}.`;
}

/** An adapter's message on one line, clipped. */
function clipMessage(message: string): string {
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > ADAPTER_MESSAGE_CAP ? `${line.slice(0, ADAPTER_MESSAGE_CAP)}…` : line;
}

// ---------------------------------------------------------------------------------------
// Watch expressions.

/** One watch expression's value at a stop, or why it has none. */
export type WatchValue =
  | {
      readonly expression: string;
      readonly result: { result: string; type?: string; variablesReference?: number };
    }
  | { readonly expression: string; readonly error: string };

/** `Watch:` and a line per expression (`sum = 3 (int)`, as evaluate answers), for a stop answer. */
export function watchLines(values: readonly WatchValue[]): string {
  if (values.length === 0) return '';
  const lines = values.map((value) =>
    'result' in value
      ? `- ${evaluateAnswer(value.expression, value.result)}`
      : `- ${value.expression}: cannot evaluate: ${clipMessage(value.error)}`,
  );
  return `Watch:\n${lines.join('\n')}`;
}

/** What `watch` set; `now` is the values at the current stop, when stopped. */
export function watchAnswer(expressions: readonly string[], now: string | undefined): string {
  if (expressions.length === 0) return 'Watch expressions cleared.';
  const set = `Watching ${expressions.length} expression${expressions.length === 1 ? '' : 's'}, shown with every stop: ${expressions.join(', ')}.`;
  return now ? `${set}\n${now}` : `${set} They are evaluated at the next stop.`;
}

/** A note on requested exception filters the adapter does not offer (none when it offers them all, or has not said). */
export function unknownFiltersNote(filters: readonly string[], offered: readonly string[] | undefined): string {
  if (!offered) return '';
  const unknown = filters.filter((filter) => !offered.includes(filter));
  if (unknown.length === 0) return '';
  return ` Note: this adapter has no exception filter ${unknown.map((filter) => `"${filter}"`).join(', ')}; it offers ${offered.length ? offered.map((filter) => `"${filter}"`).join(', ') : 'none'}.`;
}

// ---------------------------------------------------------------------------------------
// Launch, waits and stops.

export interface LaunchFacts {
  readonly attach: boolean;
  /** What it started, in a few words (`launchedWhat`). */
  readonly what: string;
  readonly adapter: string;
  /** Where the adapter comes from, with paths inside the workspace folder already relative. */
  readonly detail: string;
  readonly session: string;
  readonly processId: number | undefined;
  /** `unknownFiltersNote` of the exception filters set before the launch. */
  readonly unknownNote: string;
  /** What the wait for the first stop answered. */
  readonly outcome: string;
}

export function launchedAnswer(facts: LaunchFacts): string {
  const processId = facts.attach
    ? ''
    : facts.processId !== undefined
      ? `, process id ${facts.processId}`
      : '; the adapter reported no process id';
  const started = `${facts.attach ? 'Attached to' : 'Launched'} ${facts.what} with ${facts.adapter} (${facts.detail}); session "${facts.session}"${processId}.`;
  return `${started}${facts.unknownNote}\n${facts.outcome}`;
}

/** What a launch or attach started: the program, the launch.json configuration, the port or pid. */
export function launchedWhat(facts: { configuration?: string; attachTo?: string; program?: string }): string {
  if (!facts.configuration && facts.attachTo !== undefined) return facts.attachTo;
  if (!facts.configuration) return facts.program ?? 'the program';
  return `the launch.json configuration "${facts.configuration}"${facts.program ? ` (${facts.program})` : ' (it names no program)'}`;
}

/** Paths inside the workspace folder, as the model addresses them: relative. */
export function withinFolder(text: string, folder: string): string {
  return text.split(folder + path.sep).join('');
}

export function stillRunningAnswer(waitMs: number): string {
  return `Still running after ${Math.round(waitMs / 1000)} s (no breakpoint hit). Next: op "pause" to stop it, "output" to see what it printed, or "continue" to wait longer.`;
}

/** `notes`: what the breakpoints came to (`unboundNote`), when anything. */
export function programEndedAnswer(
  state: Extract<ProgramState, { kind: 'ended' }>,
  output: string,
  notes: readonly string[] = [],
): string {
  const ended = `The program ended${state.exitCode !== undefined ? ` with exit code ${state.exitCode}` : ''} without stopping${state.reason ? ` (${state.reason})` : ''}.`;
  return (
    [ended, ...notes.filter(Boolean)].join('\n') + (output ? `\nOutput:\n${output.slice(-LAST_OUTPUT_CHARS)}` : '')
  );
}

/**
 * `where` is ` at file:line — \`text\` in function`, or empty when the top frame is not known;
 * `details` (watch values, breakpoint notes) go between the stop and what to do next.
 */
export function stopAnswer(
  state: Extract<ProgramState, { kind: 'stopped' }>,
  where: string,
  hasOutput: boolean,
  details: readonly string[] = [],
  /** The session that stopped, named when the family ran the program in several (js-debug: `worker.js [4242]`). */
  session?: string,
): string {
  const { reason, threadId, description } = state;
  const output = hasOutput ? ' It printed output: op "output".' : '';
  const stopped = `Stopped (${reason}${description && description !== reason ? `: ${description}` : ''})${session ? ` in session "${session}"` : ''} on thread ${threadId ?? '?'}${where}.${output}`;
  return [stopped, ...details.filter(Boolean), NEXT_AT_STOP].join('\n');
}

export function notStoppedAnswer(state: ProgramState): string {
  return `The program is ${describeState(state)}.`;
}

export function alreadyStoppedAnswer(stop: string): string {
  return `Already stopped. ${stop}`;
}

/** A frame's place: `app.py:12 — \`x = f(y)\``, or the source's name when it has no file. */
export function frameLocation(
  frame: { line: number; source?: { name?: string } },
  file: string | undefined,
  text: string,
): string {
  if (!file) return `${frame.source?.name ?? '(no source)'}:${frame.line}`;
  return `${file}:${frame.line}${text ? ` — \`${text}\`` : ''}`;
}

export function expiredNote(session: string, ttlMs: number): string {
  return `The session "${session}" reached its time to live (${formatMinutes(ttlMs)}) and was ended. Launch again if you need it.`;
}

export function expiredAnswer(note: string, output: string): string {
  return `${note}${output ? `\nLast output:\n${output.slice(-LAST_OUTPUT_CHARS)}` : ''}`;
}

// ---------------------------------------------------------------------------------------
// What the program holds.

/** `session` names each thread's session when the family's live sessions have threads of their own. */
export function threadsAnswer(threads: ReadonlyArray<{ id: number; name: string; session?: string }>): string {
  return `${threads.length} thread${threads.length === 1 ? '' : 's'}:\n${threads.map((thread) => `- ${thread.id}: ${thread.name}${thread.session ? ` (session "${thread.session}")` : ''}`).join('\n')}`;
}

/** Child sessions' ends named in one answer; the rest counted (a program may fork hundreds). */
export const MEMBER_ENDS_NAMED = 10;

/** `Session "worker.js [4242]" ended with exit code 0.`: a child of the family that ended while the rest ran on. */
export function memberEndedNote(ends: ReadonlyArray<{ readonly name: string; readonly exitCode?: number }>): string {
  const named = ends
    .slice(0, MEMBER_ENDS_NAMED)
    .map((end) => `Session "${end.name}" ended${end.exitCode !== undefined ? ` with exit code ${end.exitCode}` : ''}.`);
  const more = ends.length - named.length;
  return [...named, ...(more > 0 ? [`…and ${more} more sessions ended.`] : [])].join('\n');
}

/** `frames` with their place already worded (`frameLocation`), at most STACK_CAP of them. */
export function stackAnswer(
  threadId: number,
  frames: ReadonlyArray<{ id: number; name: string; where: string }>,
  total: number,
): string {
  const lines = frames.map((frame) => `- #${frame.id} ${frame.name} at ${frame.where}`);
  const more =
    total > frames.length ? `\n(${total - frames.length} more frames not shown: the cap is ${STACK_CAP}.)` : '';
  return `Stack of thread ${threadId} (${frames.length}${total > frames.length ? ` of ${total}` : ''} frames, innermost first; #N is the frame_id):\n${lines.join('\n')}${more}`;
}

export function scopesAnswer(
  frameId: number,
  scopes: ReadonlyArray<{ name: string; variablesReference: number; expensive?: boolean }>,
): string {
  return `Scopes of frame ${frameId}:\n${scopes.map((scope) => `- ${scope.name}: reference ${scope.variablesReference}${scope.expensive ? ' (expensive)' : ''}`).join('\n')}\nNext: op "variables" with a reference.`;
}

export function variablesAnswer(
  variables: ReadonlyArray<{ name: string; value: string; type?: string; variablesReference: number }>,
): string {
  const shown = variables.slice(0, VARIABLES_CAP).map((variable) => {
    const value = capValue(variable.value);
    // `name = value (type)`, as evaluate answers: the secret mask reads an assignment (a type between would hide it).
    return `- ${variable.name} = ${value}${variable.type ? ` (${variable.type})` : ''}${variable.variablesReference > 0 ? ` [reference ${variable.variablesReference}]` : ''}`;
  });
  const more =
    variables.length > VARIABLES_CAP
      ? `\n(${variables.length - VARIABLES_CAP} more not shown: the cap is ${VARIABLES_CAP}; evaluate an expression for a specific one.)`
      : '';
  return `${variables.length} variable${variables.length === 1 ? '' : 's'}:\n${shown.join('\n')}${more}`;
}

export function evaluateAnswer(
  expression: string,
  result: { result: string; type?: string; variablesReference?: number },
): string {
  return `${expression} = ${capValue(result.result)}${result.type ? ` (${result.type})` : ''}${result.variablesReference ? ` [reference ${result.variablesReference}]` : ''}`;
}

export function outputAnswer(taken: { text: string; dropped: number }, state: ProgramState): string {
  if (!taken.text) return `No new output. The program is ${describeState(state)}.`;
  return `${taken.dropped > 0 ? `(${taken.dropped} earlier characters dropped: only the last ${taken.text.length} are kept between calls.)\n` : ''}${taken.text}`;
}

export function terminatedAnswer(session: string, output: string): string {
  return `Session "${session}" ended; the adapter and the program are stopped.${output ? `\nLast output:\n${output}` : ''}`;
}

export const NO_SESSION_TO_TERMINATE = 'No debug session to terminate.';

// ---------------------------------------------------------------------------------------
// The human's own session, sent to the chat ("Send the Paused State to the Agent").

/** Frames of the program's own (in the workspace) the sent state lists. */
export const SENT_FRAMES_CAP = 10;

/** What the agent may do with the human's session it was sent, and whether the human let it drive it. */
export type Drive = 'ask' | 'allowed' | 'denied';

export interface PausedStateFacts {
  readonly session: string;
  readonly adapter: string;
  /** `Stopped (breakpoint) on thread 1 at file:line — \`text\` in fn.` */
  readonly stop: string;
  /** The workspace's frames, innermost first, each `#id name at where`; at most SENT_FRAMES_CAP. */
  readonly frames: readonly string[];
  readonly totalFrames: number;
  /** The top frame's first scope, worded by variablesAnswer; empty when it has none. */
  readonly locals: string;
  readonly localsOf: string;
}

/** The text the chat is given: the stop, the program's own frames, the top frame's locals, and what the agent may do. */
export function pausedStateAnswer(facts: PausedStateFacts): string {
  const left = facts.totalFrames - facts.frames.length;
  return [
    `The paused state of my debug session "${facts.session}" (${facts.adapter}):`,
    facts.stop,
    `Stack (${facts.frames.length} of ${facts.totalFrames} frames, innermost first; the program's own, at most ${SENT_FRAMES_CAP}${left > 0 ? `; ${left} more are in libraries or past the cap: debug op "stack" lists them` : ''}):`,
    ...facts.frames.map((frame) => `- ${frame}`),
    facts.locals ? `Locals of ${facts.localsOf}: ${facts.locals}` : `${facts.localsOf}: no variables.`,
    `You may read this session with the debug tool (status, stack, scopes, variables, threads, output) while you have no session of your own. Continuing, stepping, pausing or evaluating in it is asked of me once; you never end it.`,
  ].join('\n');
}

/** `status` of a conversation without a session of its own, when the human sent one. */
export function sharedStatusLine(session: string, adapter: string, state: ProgramState, drive: Drive): string {
  const head = `No session of this conversation's own. The human sent their session "${session}" (${adapter}, ${describeState(state)}) to the chat`;
  if (drive === 'allowed')
    return `${head}, and you are driving it (they allowed it): continue, step, pause and evaluate act on it. It does not end by itself, and you do not end it.`;
  if (drive === 'denied')
    return `${head}; they did not let you drive it: stack, scopes, variables and output still read it.`;
  return `${head}: stack, scopes, variables and output read it; the first continue, step, pause or evaluate asks them whether you may drive it.`;
}

function capValue(value: string): string {
  return value.length > VALUE_CAP
    ? `${value.slice(0, VALUE_CAP)}… (${value.length} characters, cut at ${VALUE_CAP})`
    : value;
}

// ---------------------------------------------------------------------------------------
// Refusals: what was wrong with the call, and what to send instead.

export const refusal = {
  noSession: (op: string) => `No debug session for op "${op}". Start one with op "launch".`,
  sessionEnded: (session: string, state: ProgramState) =>
    `The session "${session}" has ended (${describeState(state)}). Launch again; "output" still returns what it printed.`,
  alreadyRunning: (session: string, adapter: string, state: ProgramState) =>
    `A session is already running in this conversation: "${session}" (${adapter}, ${describeState(state)}). Call op "terminate" first, or keep using it.`,
  /** A request about a stop, or a thread, of a session of the family that has ended since (a forked process). */
  sessionGone: (command: string) =>
    `The session that thread or stop belongs to has ended: "${command}" cannot go to it. Op "threads" lists the live sessions' threads.`,
  notStopped: (state: ProgramState) =>
    `The program is ${describeState(state)}, not stopped. Use op "pause" first, or wait with "continue".`,
  noFrames: (threadId: number) => `Thread ${threadId} has no frames.`,
  variablesNeedReference: 'op "variables" needs `reference` (from "scopes", or a variable with children).',
  evaluateNeedsExpression: 'op "evaluate" needs `expression`.',
  watchNeedsExpressions: 'op "watch" needs `expressions`: a list of expressions (an empty list clears them).',
  watchTooMany: (given: number) => `At most ${WATCH_CAP} watch expressions; ${given} were given. Nothing was changed.`,
  breakpointsNeedFile: 'op "breakpoints" needs `file` with `lines` (an empty list clears the file), or `exceptions`.',
  noSuchSourceFile: (given: string) =>
    `${given} does not exist. Give the path of a source file relative to the workspace folder.`,
  textNowhere: (file: string, expected: string, line: number, around: string) =>
    `No line of ${file} holds ${expected} (given with line ${line}); nothing was changed. The file around line ${line} now:\n${around}\nRead the file again and give the line and its text as they are.`,
  linesOutside: (file: string, lineCount: number, outside: readonly number[]) =>
    `${file} has ${lineCount} lines; line ${outside.join(', ')} is outside it. Nothing was changed.`,
  unknownOp: (op: string) => `Unknown op "${op}".`,
  launchNeedsProgram:
    'op "launch" needs `program` (a source file or executable, relative to the workspace folder) or `configuration` (a launch.json name).',
  attachNeedsTarget: 'op "attach" needs `port` (or `pid` where the adapter supports it) and `adapter`.',
  noSuchProgram: (given: string) => `${given} does not exist. Give the path relative to the workspace folder.`,
  /** `program` is the program as displayed, when one was given. */
  whichAdapter: (ids: readonly string[], program: string | undefined) =>
    `Which adapter? Pass \`adapter\` (${ids.join(', ')}); ${program ? `${program} has no extension one is known for` : 'attach needs it'}.`,
  adapterCannotStart: (id: string, reason: string, withoutProgram: boolean) =>
    `The ${id} adapter cannot start: ${reason}${withoutProgram ? ' (for attach, `cwd` says which project it is: its .venv is used)' : ''}`,
  testOrConfiguration:
    'Give `test` (with `program`, the test file) or `configuration` (a launch.json name), not both: a configuration already says what runs.',
  noConfiguration: (name: string) => `No configuration named "${name}" in .vscode/launch.json.`,
  notPausedToSend: (session: string, state: ProgramState) =>
    `The debug session "${session}" is ${describeState(state)}, not paused: stop it at a breakpoint (or pause it), then send its state.`,
  driveRefused: (session: string, op: string, drive: Drive) =>
    `The session "${session}" is the human's (they sent it to the chat)${drive === 'denied' ? ' and they did not let you drive it' : ' and they did not answer whether you may drive it'}: op "${op}" was not done, the session is as it was. Stack, scopes, variables and output still read it.`,
  notYoursToEnd: (session: string) =>
    `The session "${session}" is the human's (they sent it to the chat): you do not end it; they end it from the debug toolbar. Nothing was done.`,
  /** A compound starts several root sessions side by side, each its own family: one conversation drives one. */
  compound: (name: string, configurations: readonly string[]) =>
    `"${name}" is a compound in .vscode/launch.json (${configurations.map((entry) => `"${entry}"`).join(', ')}): it starts several sessions side by side, and the debug tool drives one session (with the child sessions it starts) per conversation. Launch one of its configurations by name instead.`,
} as const;
