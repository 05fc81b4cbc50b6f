/** Every tool name, in one place. The manifest, the registry and the tests refer to these. */
export const ToolName = {
  lsp: 'lsp',
  lspRename: 'lsp_rename',
  lspApply: 'lsp_apply',
  astGrep: 'ast_grep',
  astEdit: 'ast_edit',
  resolve: 'resolve',
  write: 'write',
  edit: 'edit',
  patch: 'patch',
  debug: 'debug',
  eval: 'eval',
  test: 'test',
  askUser: 'ask_user',
  vibeSpawn: 'vibe_spawn',
  vibeSpawnReadonly: 'vibe_spawn_readonly',
  vibeSend: 'vibe_send',
  vibeWait: 'vibe_wait',
  vibeKill: 'vibe_kill',
  vibeList: 'vibe_list',
} as const;

export type ToolName = (typeof ToolName)[keyof typeof ToolName];
