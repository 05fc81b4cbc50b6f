/**
 * How Agent Changes recorded a write before issue 33 (main at 4b93d3c), kept only as the bench's
 * peer: every manual edit between the agent's writes was carried at once into the base and into
 * every step's text (two line diffs per step), and the bound, when one conversation alone passed
 * it, dropped that conversation's whole record. Not used by the extension.
 */
import { mergeRegions, mergeWith } from '../src/edits/lineMerge';
import { splitLines } from '../src/edits/textDiff';
import { ObservedWrite } from '../src/platform/changeJournal';

interface Step {
  readonly call: string;
  readonly before: string | undefined;
}

interface FileRecordBefore {
  readonly path: string;
  readonly base: string | undefined;
  readonly agent: string | undefined;
  readonly steps: readonly Step[];
}

function carry(text: string | undefined, from: string | undefined, to: string | undefined): string | undefined {
  if (from === undefined || to === undefined || text === undefined) return text === from ? to : text;
  const ancestor = splitLines(from);
  return mergeWith(ancestor, mergeRegions(ancestor, splitLines(text), splitLines(to)), (region) =>
    region.changedBy === 'ours' ? 'ours' : 'theirs',
  );
}

function recordWrite(record: FileRecordBefore | undefined, call: string, write: ObservedWrite): FileRecordBefore {
  if (!record)
    return { path: write.path, base: write.before, agent: write.after, steps: [{ call, before: write.before }] };
  let { base, steps } = record;
  if (write.before !== record.agent) {
    base = carry(base, record.agent, write.before);
    steps = steps.map((step) => ({ ...step, before: carry(step.before, record.agent, write.before) }));
  }
  const last = steps[steps.length - 1];
  return {
    path: record.path,
    base,
    agent: write.after,
    steps: last?.call === call ? steps : [...steps, { call, before: write.before }],
  };
}

function size(files: readonly FileRecordBefore[]): number {
  return files.reduce(
    (sum, file) =>
      sum +
      (file.base?.length ?? 0) +
      (file.agent?.length ?? 0) +
      file.steps.reduce((total, step) => total + (step.before?.length ?? 0), 0),
    0,
  );
}

/** One conversation's record as it was kept: `record` is what a write cost; `dropped` counts whole records lost. */
export class ChangeLogBefore {
  private files: FileRecordBefore[] = [];
  dropped = 0;

  constructor(private readonly maxChars: number) {}

  record(call: string, write: ObservedWrite): void {
    const at = this.files.findIndex((file) => file.path === write.path);
    const next = recordWrite(at === -1 ? undefined : this.files[at], call, write);
    if (at === -1) this.files.push(next);
    else this.files[at] = next;
    // The newest alone over the bound: its oldest files went, then (one file left) the whole record.
    while (this.files.length > 1 && size(this.files) > this.maxChars) this.files.shift();
    if (size(this.files) > this.maxChars) {
      this.files = [];
      this.dropped++;
    }
  }

  get held(): number {
    return size(this.files);
  }
}
