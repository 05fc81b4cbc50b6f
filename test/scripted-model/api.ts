/** What the scripted-model test extension exports to the suites. */

export type RecordedPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'toolCall'; readonly callId: string; readonly name: string; readonly input: unknown }
  | { readonly kind: 'toolResult'; readonly callId: string; readonly text: string }
  | { readonly kind: 'other'; readonly description: string };

export interface RecordedMessage {
  readonly role: 'user' | 'assistant' | 'system' | string;
  readonly parts: readonly RecordedPart[];
}

export interface RecordedRequest {
  readonly modelId: string;
  /** Names of the tools chat offered the model in this request. */
  readonly toolNames: readonly string[];
  /** The same tools with the input schema each was offered with. */
  readonly tools: ReadonlyArray<{ readonly name: string; readonly inputSchema: unknown }>;
  readonly messages: readonly RecordedMessage[];
}

/** What the model answers in one turn. */
export type ScriptedReply =
  { readonly text: string } | { readonly toolCall: { readonly name: string; readonly input: object } };

export type ScriptedTurn = (request: RecordedRequest) => ScriptedReply;

export interface ScriptedModelApi {
  readonly vendor: string;
  readonly modelId: string;
  /** Replaces the remaining turns; each request consumes one, and with none left the model says so in text. */
  script(turns: readonly ScriptedTurn[]): void;
  readonly requests: readonly RecordedRequest[];
  reset(): void;
  /** Resolves once at least `count` requests were recorded (since the last reset). */
  waitForRequests(count: number, timeoutMs: number): Promise<readonly RecordedRequest[]>;
}
