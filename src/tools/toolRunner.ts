/**
 * The one way into our tools, whoever calls: the chat and other extensions through
 * `vscode.lm.registerTool`, and in-process callers (a worker, a cell's `tool()`, the playground)
 * through `run` and `relay`. Each call is refused when the tool's resource is not wired, validated
 * against the schema, held to the caller's tier cap, asked of the human on the question card
 * where nobody asked yet, cancelled with its token, and its errors turned into text for the model.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { offeredTools } from '../platform/availability';
import { Caller, writesOnlyItsCopy } from '../platform/caller';
import { ToolDeclaration } from '../platform/toolDeclaration';
import { TOOL_CATALOG } from './declarations';
import { conversationIdOf } from '../platform/conversation';
import { validateInput } from '../platform/inputValidation';
import { resourceTitle } from '../platform/resources';
import { Tier, tierNeedsConfirmation, tierWithinCap } from '../platform/tiers';
import { ToolName } from '../platform/toolNames';
import { Runtime } from '../runtime';
import { errorText } from './errorText';
import { ModelFacingError } from '../platform/modelFacingError';
import { CallNotPrepared, PreparedCall, PreparedCalls } from './preparedCalls';
import { AnyLiveTool, LiveTool, ToolAnswer } from './liveTool';
import { Approver, CallerTools, Confirmation, RelayedAnswer } from '../platform/vscode/approver';
import { displayPath, FileNotFound } from '../workspace/paths';
import { workspaceFolderPaths } from '../workspace/vscode/workspaceFolders';
import { inFolders } from '../workspace/folderView';
import { singleLine } from '../platform/wording';

/** A caller inside this extension that may hold the chat's token (a cell of a chat's kernel). */
export type RelayCaller = Caller & { readonly chatToken?: vscode.ChatParticipantToolToken };

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

function answerResult(answer: string | ToolAnswer): vscode.LanguageModelToolResult {
  if (typeof answer === 'string') return textResult(answer);
  return new vscode.LanguageModelToolResult([
    new vscode.LanguageModelTextPart(answer.text),
    ...answer.images.map((image) => vscode.LanguageModelDataPart.image(image.data, image.mime)),
  ]);
}

/** The text of a result, images named by their type and size. */
export function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (part instanceof vscode.LanguageModelDataPart) return `[${part.mimeType}, ${part.data.byteLength} bytes]`;
      return '';
    })
    .join('\n');
}

function isCancellation(error: unknown, token: vscode.CancellationToken): boolean {
  return token.isCancellationRequested || error instanceof vscode.CancellationError;
}

/** The refusal a tool gives when invoked while its resource is not wired (lm.invokeTool ignores `when`). */
export function refusalText(tool: AnyLiveTool, reason: string): string {
  const { declaration } = tool;
  return `Refused: ${declaration.name} needs ${resourceTitle(declaration.resource)}, which is not available in this window: ${reason}.`;
}

function inputPreview(input: unknown): string {
  const text = JSON.stringify(input) ?? 'undefined';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Tools a caller of this kind may never call, whatever its cap: a cell runs no cell and starts no worker; a worker starts no worker. */
function forbiddenFor(caller: Caller, name: string): string | undefined {
  const vibe = name.startsWith('vibe_');
  if (caller.kind === 'cell' && name === ToolName.eval)
    return 'A cell cannot run eval: run the code in this cell instead.';
  if (caller.kind === 'cell' && vibe)
    return `A cell cannot use ${name}: workers are started and steered by the agent itself, not from code.`;
  if (caller.kind === 'worker' && vibe)
    return `A worker cannot use ${name}: only the agent that started it manages workers.`;
  return undefined;
}

/** A write or exec tool is never run unconfirmed: if its preview fails, the human sees the raw input. */
function previewFailed(tool: LiveTool<unknown, unknown>, input: unknown, error: unknown): Confirmation {
  const why = error instanceof Error ? error.message : String(error);
  return {
    title: `Run ${tool.declaration.displayName}?`,
    message: `The preview failed (${why}); the tool would run with this input:\n\n\`\`\`json\n${JSON.stringify(input, null, 2)}\n\`\`\``,
  };
}

export class ToolRunner implements CallerTools {
  private readonly tools = new Map<string, LiveTool<unknown, unknown>>();
  private readonly prepared = new PreparedCalls();
  private approver: Approver | undefined;

  constructor(private readonly runtime: Runtime) {}

  /** The question card, once its area is wired; until then a call that must be asked is refused. */
  setApprover(approver: Approver): void {
    this.approver = approver;
  }

  /** Registers every tool of the explicit list with `vscode.lm.registerTool`, all through `run`. */
  register(context: vscode.ExtensionContext, tools: readonly AnyLiveTool[]): void {
    for (const anyTool of tools) {
      const tool = anyTool as LiveTool<unknown, unknown>;
      const { name } = tool.declaration;
      this.tools.set(name, tool);
      const implementation: vscode.LanguageModelTool<unknown> = {
        prepareInvocation: async (options, token) => {
          const invocationMessage = safeInvocationMessage(tool, options.input);
          if (!tierNeedsConfirmation(this.requiredTier(tool, options.input))) return { invocationMessage };
          const confirmation = await this.confirmation(name, options.input, token);
          if (!confirmation) return { invocationMessage };
          return {
            invocationMessage,
            confirmationMessages: {
              title: confirmation.title,
              message: new vscode.MarkdownString(confirmation.message),
            },
          };
        },
        // Measured in 1.139: the editor asks with the confirmation above before `invoke`, inline in a chat and with a
        // dialog outside one (lm.invokeTool without a token), so these callers count as asked.
        invoke: (options, token) => {
          const chat = options.toolInvocationToken !== undefined;
          const caller: Caller = chat
            ? {
                kind: 'chat',
                cap: 'exec',
                conversation: conversationIdOf(options.toolInvocationToken),
                label: 'the chat',
                humanAsked: true,
              }
            : {
                kind: 'extension',
                cap: 'exec',
                conversation: conversationIdOf(undefined),
                label: 'another extension',
                humanAsked: true,
              };
          return this.run(name, options.input, caller, token, options.toolInvocationToken);
        },
      };
      context.subscriptions.push(vscode.lm.registerTool(name, implementation));
    }
  }

  /** The tier a call needs: the tool's own for this input (what vibe_spawn grants), else its declared tier. */
  requiredTier(tool: LiveTool<unknown, unknown>, input: unknown): Tier {
    try {
      return tool.requiredTier?.(input) ?? tool.declaration.tier;
    } catch {
      return tool.declaration.tier;
    }
  }

  /**
   * Whether a call by this caller is put to the human before it runs (a worker's loop asks, and shows
   * it is waiting): a write or exec call within its cap that nobody asked about. A call the caller may
   * not make at all is refused without asking.
   */
  /** The tier a call of `name` with `input` needs; a tool of another extension counts as exec. */
  tierOf(name: string, input: unknown): Tier {
    const tool = this.tools.get(name);
    return tool ? this.requiredTier(tool, input) : 'exec';
  }

  needsApproval(name: string, input: unknown, caller: Caller): boolean {
    const tool = this.tools.get(name);
    if (!tool && !vscode.lm.tools.some((candidate) => candidate.name === name)) return false;
    const tier = this.tierOf(name, input);
    return (
      tierNeedsConfirmation(tier) &&
      tierWithinCap(tier, caller.cap) &&
      !forbiddenFor(caller, name) &&
      !caller.humanAsked &&
      !writesOnlyItsCopy(caller, tier)
    );
  }

  /**
   * The confirmation of a call, in the words the chat would show; a foreign tool's is its input.
   * A tool that plans has its plan kept for the call (`invoke` applies what was shown); undefined
   * when its plan writes nothing, so there is nothing to ask.
   */
  async confirmation(
    name: string,
    input: unknown,
    token: vscode.CancellationToken,
    caller?: Pick<Caller, 'copy'>,
  ): Promise<Confirmation | undefined> {
    // A caller in its copy is shown what the call does there (its paths resolve in the copy).
    return inFolders(caller?.copy, () => this.confirmationHere(name, input, token));
  }

  private async confirmationHere(
    name: string,
    input: unknown,
    token: vscode.CancellationToken,
  ): Promise<Confirmation | undefined> {
    const tool = this.tools.get(name);
    if (!tool)
      return {
        title: `Run ${name} (a tool of another extension)?`,
        message: `\`\`\`json\n${JSON.stringify(input, null, 2)}\n\`\`\``,
      };
    if (tool.prepare) {
      const { confirmation, call } = await this.prepareCall(tool, input, token);
      this.prepared.put(name, input, call);
      return confirmation;
    }
    try {
      if (tool.confirmation) return await tool.confirmation(input, token);
    } catch (error) {
      return previewFailed(tool, input, error);
    }
    return {
      title: `Run ${tool.declaration.displayName}?`,
      message: `\`\`\`json\n${JSON.stringify(input, null, 2)}\n\`\`\``,
    };
  }

  /**
   * Plans a call of a tool that plans: its confirmation (undefined when it writes nothing: a refusal
   * worded for the model, which the call will answer) and the plan or error `invoke` is to use.
   */
  private async prepareCall(
    tool: LiveTool<unknown, unknown>,
    input: unknown,
    token: vscode.CancellationToken,
  ): Promise<{ confirmation: Confirmation | undefined; call: PreparedCall }> {
    try {
      const prepared = await (tool.prepare as NonNullable<typeof tool.prepare>)(input, token);
      return { confirmation: prepared.confirmation, call: { plan: prepared.plan } };
    } catch (error) {
      const confirmation = error instanceof ModelFacingError ? undefined : previewFailed(tool, input, error);
      return { confirmation, call: { error } };
    }
  }

  /** The plan the human denied is not kept for a later call. */
  denied(name: string, input: unknown): void {
    this.prepared.take(name, input);
  }

  /** What `invoke` applies: the plan this very call's confirmation showed; a preparing error is thrown. */
  private planOf(call: PreparedCall): unknown {
    if ('error' in call) throw call.error;
    return call.plan;
  }

  /**
   * Runs a tool for a caller — ours, or another extension's as exec; everything a model reads comes back
   * as the result, refusals included.
   */
  async run(
    name: string,
    input: unknown,
    caller: Caller,
    token: vscode.CancellationToken,
    invocationToken?: vscode.ChatParticipantToolToken,
  ): Promise<vscode.LanguageModelToolResult> {
    // A caller in its own copy has the whole call rooted there.
    return inFolders(caller.copy, () => this.runHere(name, input, caller, token, invocationToken));
  }

  private async runHere(
    name: string,
    input: unknown,
    caller: Caller,
    token: vscode.CancellationToken,
    invocationToken?: vscode.ChatParticipantToolToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const { board, log } = this.runtime;
    const tool = this.tools.get(name);
    if (!tool && (caller.kind === 'cell' || !isToolOfAnotherExtension(name)))
      return textResult(`Error: no tool named "${name}".`);
    log.info(
      'tool.invoke',
      `${name} caller=${caller.kind} conversation=${caller.conversation} input=${inputPreview(input)}`,
    );
    if (!tool) {
      try {
        return await this.runOfAnotherExtension(name, input, caller, token);
      } catch (error) {
        if (isCancellation(error, token)) throw new vscode.CancellationError();
        return textResult(`Error: ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const { declaration } = tool;
    const state = board.get(declaration.resource);
    if (!state.ready) return textResult(refusalText(tool as AnyLiveTool, state.reason));
    const forbidden = forbiddenFor(caller, name);
    if (forbidden) return textResult(`Refused: ${forbidden}`);
    try {
      validateInput(declaration.inputSchema, input);
      const tier = this.requiredTier(tool, input);
      if (!tierWithinCap(tier, caller.cap)) {
        return textResult(
          `Refused: this call of ${name} needs the ${tier} tier, and ${caller.label} may use ${caller.cap} tools only. Nothing was done.`,
        );
      }
      let prepared: PreparedCall | undefined;
      if (tierNeedsConfirmation(tier) && !caller.humanAsked) {
        // Asked here: the plan is this call's own, not one kept for an identical call.
        let confirmation: Confirmation | undefined;
        if (tool.prepare) ({ confirmation, call: prepared } = await this.prepareCall(tool, input, token));
        else confirmation = await this.confirmationHere(name, input, token);
        // A write that lands in the caller's own copy reaches nobody's files: nobody is asked.
        const refusal =
          confirmation && !writesOnlyItsCopy(caller, tier) && (await this.ask(caller, name, tier, confirmation, token));
        if (refusal) return textResult(refusal);
      } else if (tool.prepare) {
        // Asked by the editor (chat, another extension) or a worker's card: the plan its confirmation showed.
        prepared = this.prepared.take(name, input);
        if (!prepared) throw new CallNotPrepared(name);
      }
      const plan = prepared && this.planOf(prepared);
      const answer = await tool.invoke(
        input,
        {
          token,
          conversation: caller.conversation,
          caller,
          log,
          invocationToken,
          call: { id: this.runtime.journal.nextCallId(), label: callLabel(name, input), at: Date.now() },
        },
        plan,
      );
      if (token.isCancellationRequested) throw new vscode.CancellationError();
      return answerResult(answer);
    } catch (error) {
      if (isCancellation(error, token)) throw new vscode.CancellationError();
      log.warn('tool.error', `${name}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      const file = fileArgument(input);
      const similarFiles = error instanceof FileNotFound && file ? await filesNamedLike(file) : undefined;
      return textResult(errorText(error, { file, similarFiles, displayPath: workspaceDisplayPath }));
    }
  }

  /**
   * A call made from inside this extension on behalf of a cell or a worker: the same rules as any
   * call, and the cap is the caller's own. A cell's call in a chat goes back through the chat (its
   * confirmation appears there); otherwise a write or exec call is asked on the question card. Tools
   * of other extensions (workers only) count as exec.
   */
  async relay(
    name: string,
    input: unknown,
    caller: RelayCaller,
    token: vscode.CancellationToken,
  ): Promise<RelayedAnswer> {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return {
        ok: false,
        text: `Error: the input of ${name} must be an object (a dict in Python), e.g. tool("${name}", {...}).`,
      };
    }
    try {
      if (this.tools.has(name)) {
        const forbidden = forbiddenFor(caller, name);
        if (forbidden) return { ok: false, text: `Refused: ${forbidden}` };
        const tool = this.tools.get(name) as LiveTool<unknown, unknown>;
        const tier = this.requiredTier(tool, input);
        if (!tierWithinCap(tier, caller.cap))
          return {
            ok: false,
            text: `Refused: ${name} is a ${tier} tool, and ${caller.label} may use ${caller.cap} tools only.`,
          };
        const result = caller.chatToken
          ? await vscode.lm.invokeTool(name, { input, toolInvocationToken: caller.chatToken }, token)
          : await this.run(name, input, caller, token);
        return this.relayed(result);
      }
      if (!isToolOfAnotherExtension(name) || caller.kind === 'cell') {
        return {
          ok: false,
          text: `Error: no tool named "${name}" here. Tools ${caller.label} can call: ${this.offered(caller)
            .map((tool) => tool.name)
            .join(', ')}.`,
        };
      }
      return this.relayed(await this.runOfAnotherExtension(name, input, caller, token));
    } catch (error) {
      if (error instanceof vscode.CancellationError || token.isCancellationRequested)
        return { ok: false, text: `${name} was cancelled.` };
      return { ok: false, text: `Error: ${name} failed: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /**
   * The tools a caller may be offered: ours within its cap whose resource is ready (platform/availability),
   * except those its kind may never call, and other extensions' tools when it may use exec.
   */
  offered(caller: Caller): vscode.LanguageModelToolInformation[] {
    const ours = new Set<string>(
      offeredTools(TOOL_CATALOG, this.runtime.board, caller.cap).map(
        (declaration: ToolDeclaration) => declaration.name,
      ),
    );
    const describe = this.runtime.descriptions.describer();
    return vscode.lm.tools
      .filter(
        (tool) =>
          !forbiddenFor(caller, tool.name) && (isOurToolName(tool.name) ? ours.has(tool.name) : offersOthers(caller)),
      )
      .map((tool) => (ours.has(tool.name) ? { ...tool, description: describe(tool.name, tool.description) } : tool));
  }

  /** The tools of other extensions a caller may be offered (all or none: they count as exec). */
  offeredOfOtherExtensions(caller: Caller): vscode.LanguageModelToolInformation[] {
    if (!offersOthers(caller)) return [];
    return vscode.lm.tools.filter((tool) => !isOurToolName(tool.name) && !forbiddenFor(caller, tool.name));
  }

  /**
   * A call of another extension's tool (never a cell's): it counts as exec whatever its tags say, acts
   * on the live workspace (never from a copy), is put on the card where nobody asked, and runs through
   * `vscode.lm.invokeTool`. A refusal is the answer's text; the tool's own failures are thrown.
   */
  private async runOfAnotherExtension(
    name: string,
    input: unknown,
    caller: Caller,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    if (!tierWithinCap('exec', caller.cap))
      return textResult(
        `Refused: ${name} belongs to another extension and counts as exec; ${caller.label} may use ${caller.cap} tools only.`,
      );
    if (caller.copy)
      return textResult(
        `Refused: ${name} belongs to another extension and would act on the live workspace, not on the copy ${caller.label} works in.`,
      );
    if (!caller.humanAsked) {
      const confirmation = await this.confirmation(name, input, token, caller);
      const refusal = confirmation && (await this.ask(caller, name, 'exec', confirmation, token));
      if (refusal) return textResult(refusal);
    }
    return vscode.lm.invokeTool(name, { input: input as object, toolInvocationToken: undefined }, token);
  }

  /** Puts the call to the human; the refusal text when denied or when nobody can be asked, else undefined. */
  private async ask(
    caller: Caller,
    name: string,
    tier: Tier,
    confirmation: Confirmation,
    token: vscode.CancellationToken,
  ): Promise<string | undefined> {
    if (!this.approver)
      return `Refused: ${name} needs the human's approval, and the question card is not available in this window. Nothing was done.`;
    const allowed = await this.approver.approve({ caller, tool: name, tier, confirmation }, token);
    this.runtime.log.info(
      'tool.approval',
      `${name} for ${caller.kind} ${caller.conversation}: ${allowed ? 'allowed' : 'denied'}`,
    );
    return allowed
      ? undefined
      : `Refused: the human denied this ${name} call. Do not retry it; continue without it, or finish and say what is left.`;
  }

  private relayed(result: vscode.LanguageModelToolResult): RelayedAnswer {
    const text = resultText(result);
    return { ok: !isFailureText(text), text };
  }
}

function isOurToolName(name: string): boolean {
  return TOOL_CATALOG.some((declaration) => declaration.name === name);
}

/** A tool in `vscode.lm.tools` that is not ours. */
function isToolOfAnotherExtension(name: string): boolean {
  return !isOurToolName(name) && vscode.lm.tools.some((candidate) => candidate.name === name);
}

/**
 * Whether a caller may be offered other extensions' tools: they count as exec, whatever their tags
 * claim (tier tags are trusted on our own tool names only), and act on the live workspace, so never
 * for a cell or a worker in its copy.
 */
function offersOthers(caller: Caller): boolean {
  return caller.kind !== 'cell' && !caller.copy && tierWithinCap('exec', caller.cap);
}

/** Our tools answer a failure as text ("Error: …", "Refused: …"): a cell raises ToolError for it, MCP sets `isError`. */
export function isFailureText(text: string): boolean {
  return /^(Error|Refused):/.test(text);
}

async function filesNamedLike(file: string): Promise<string[]> {
  const name = path.basename(file);
  if (!name) return [];
  const found = await vscode.workspace.findFiles(`**/${name}`, '**/node_modules/**', 5);
  return found.map((uri) => vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1));
}

function safeInvocationMessage(tool: LiveTool<unknown, unknown>, input: unknown): string {
  try {
    return tool.invocationMessage(input);
  } catch {
    return `${tool.declaration.displayName}…`;
  }
}

function workspaceDisplayPath(absolutePath: string): string {
  return displayPath(workspaceFolderPaths(), absolutePath);
}

/** `edit src/a.ts`: how Agent Changes names a call (its checkpoints are "before" it). */
function callLabel(name: string, input: unknown): string {
  const file = fileArgument(input);
  return file ? `${name} ${singleLine(file, 80)}` : name;
}

function fileArgument(input: unknown): string | undefined {
  const record = input as { file?: unknown; path?: unknown } | undefined;
  const file = record?.file ?? record?.path;
  return typeof file === 'string' ? file : undefined;
}
