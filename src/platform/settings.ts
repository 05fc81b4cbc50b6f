/** Every setting the extension reads, in one place; a unit test checks package.json declares exactly these. */
export const Setting = {
  lspEnabled: 'liveTools.lsp.enabled',
  lspRequestTimeoutSeconds: 'liveTools.lsp.requestTimeoutSeconds',
  lspDiagnosticsWaitSeconds: 'liveTools.lsp.diagnosticsWaitSeconds',
  lspServers: 'liveTools.lsp.servers',
  lspBinDirs: 'liveTools.lsp.binDirs',
  lspCheckTimeoutSeconds: 'liveTools.lsp.checkTimeoutSeconds',
  lspReviewChanges: 'liveTools.lsp.reviewChanges',
  writesDiagnosticsWaitSeconds: 'liveTools.writes.diagnosticsWaitSeconds',
  debugPython: 'liveTools.debug.python',
  debugSessionMinutes: 'liveTools.debug.sessionMinutes',
  structuralMaxFileCharacters: 'liveTools.structural.maxFileCharacters',
  evalPython: 'liveTools.eval.python',
  evalIdleSeconds: 'liveTools.eval.idleSeconds',
  askUserTimeoutMinutes: 'liveTools.askUser.timeoutMinutes',
  askUserAttachSeconds: 'liveTools.askUser.attachSeconds',
  vibeEnabled: 'liveTools.vibe.enabled',
  vibeFastModel: 'liveTools.vibe.fastModel',
  vibeGoodModel: 'liveTools.vibe.goodModel',
  vibeMaxTurns: 'liveTools.vibe.maxTurns',
  vibeMaxMinutes: 'liveTools.vibe.maxMinutes',
  mcpMaxTier: 'liveTools.mcp.maxTier',
  secretsMask: 'liveTools.secrets.mask',
  secretsPatterns: 'liveTools.secrets.patterns',
  mcpOfferToEditor: 'liveTools.mcp.offerToEditor',
} as const;

export type Setting = (typeof Setting)[keyof typeof Setting];
