/** How many entries each kind of lsp answer lists before it counts the rest ("and N more"). */
export const LSP_REFERENCES_CAP = 50;
export const LSP_CALLS_CAP = 50;
export const LSP_WORKSPACE_SYMBOLS_CAP = 100;
export const LSP_DOCUMENT_SYMBOLS_CAP = 200;
