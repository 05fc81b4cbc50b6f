/**
 * `tool(name, input)` from inside a kernel cell: the call goes back through `vscode.lm.invokeTool`
 * with the cell's own chat token, so the editor's approvals, our tiers and every wrapper apply as
 * for a call the model made. Only our own tools, never `eval` itself, and none above the caller's tier.
 */
import * as vscode from 'vscode';
import { TOOL_CATALOG } from '../../registry/catalog';
import { Tier, tierWithinCap } from '../../registry/tiers';
import { ToolName } from '../../registry/toolNames';

export interface RelayedAnswer {
  readonly ok: boolean;
  readonly text: string;
}

export async function relayToolCall(
  name: string,
  input: unknown,
  caller: { readonly cap: Tier; readonly invocationToken: vscode.ChatParticipantToolToken | undefined },
  token: vscode.CancellationToken,
): Promise<RelayedAnswer> {
  const declaration = TOOL_CATALOG.find((tool) => tool.name === name);
  if (!declaration) {
    return { ok: false, text: `No tool named "${name}". Tools a cell can call: ${TOOL_CATALOG.filter((tool) => tool.name !== ToolName.eval && tierWithinCap(tool.tier, caller.cap)).map((tool) => tool.name).join(', ')}.` };
  }
  if (declaration.name === ToolName.eval) return { ok: false, text: 'A cell cannot run eval: run the code in this cell instead.' };
  if (!tierWithinCap(declaration.tier, caller.cap)) {
    return { ok: false, text: `${name} is a ${declaration.tier} tool; this cell's caller may use ${caller.cap} tools and below.` };
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { ok: false, text: `The input of ${name} must be an object (a dict in Python), e.g. tool("${name}", {...}).` };
  try {
    const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: caller.invocationToken }, token);
    const text = result.content
      .map((part) => {
        if (part instanceof vscode.LanguageModelTextPart) return part.value;
        if (part instanceof vscode.LanguageModelDataPart) return `[${part.mimeType}, ${part.data.byteLength} bytes]`;
        return '';
      })
      .join('\n');
    // Our tools answer a failure as text ("Error: …", "Refused: …"); in a cell it raises ToolError.
    return { ok: !/^(Error|Refused):/.test(text), text };
  } catch (error) {
    if (error instanceof vscode.CancellationError || token.isCancellationRequested) return { ok: false, text: `${name} was cancelled.` };
    return { ok: false, text: `${name} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
