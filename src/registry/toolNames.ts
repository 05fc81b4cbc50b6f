/** Every tool name, in one place. The manifest, the registry and the tests refer to these. */
export const ToolName = {
  lsp: 'lsp',
  lspRename: 'lsp_rename',
  astGrep: 'ast_grep',
  astEdit: 'ast_edit',
  resolve: 'resolve',
  write: 'write',
  edit: 'edit',
  patch: 'patch',
  debug: 'debug',
  eval: 'eval',
  askUser: 'ask_user',
} as const;

export type ToolName = (typeof ToolName)[keyof typeof ToolName];
