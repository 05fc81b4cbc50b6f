/** The text of lsp_apply's confirmations and answers: what the language server's change does, file by file. */
import { plural } from '../platform/wording';

export type ApplyKind = 'code_action' | 'format' | 'organize_imports' | 'rename_file';

/** One file of a planned change, as shown (workspace-relative). */
export interface PlannedChange {
  readonly path: string;
  readonly edits: number;
}

/** `1 edit in 1 file`, with the move first when there is one: `src/a.ts → lib/a.ts and 3 edits in 2 files`. */
export function changeSize(files: readonly PlannedChange[], move?: { from: string; to: string }): string {
  const edits = files.reduce((sum, file) => sum + file.edits, 0);
  const size = `${plural(edits, 'edit')} in ${plural(files.length, 'file')}`;
  if (!move) return size;
  return edits === 0 ? `move ${move.from} → ${move.to}` : `move ${move.from} → ${move.to} and ${size}`;
}

/** `- src/a.ts (2 edits)` per file, sorted. */
export function changeList(files: readonly PlannedChange[]): string {
  return [...files]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((file) => `- ${file.path} (${plural(file.edits, 'edit')})`)
    .join('\n');
}
