/** The eval tool's input and declaration: a cell in a persistent Python or JavaScript kernel. */
import { ToolDeclaration } from '../../platform/toolDeclaration';
import { ToolName } from '../../platform/toolNames';
import { EVAL_LANGUAGES } from '../../kernels/kernelPool';

export interface EvalInput {
  code: string;
  description: string;
  language?: (typeof EVAL_LANGUAGES)[number];
  reset?: boolean;
}

export const evalDeclaration: ToolDeclaration = {
  name: ToolName.eval,
  tier: 'exec',
  resource: 'kernels',
  displayName: 'Run code',
  icon: '$(notebook)',
  userDescription: 'Run a cell of Python or JavaScript in a kernel whose state persists.',
  modelDescription: [
    'Run a cell of Python (default) or JavaScript in a persistent kernel, one per language per conversation: ' +
      'variables, imports and loaded data survive between calls. The last expression is returned as a notebook ' +
      'would; stdout/stderr come in order; an error comes back as a short traceback of your own lines.',
    'Python: display(obj) shows a value; a pandas DataFrame comes back as a table (rows capped), a matplotlib ' +
      "figure as an image. %pip install (the kernel's own interpreter; the next import sees the new version), %cd, " +
      "!cmd, %%bash and %%timeit work. The project's .venv/venv Python runs it. JavaScript (Node): top-level " +
      'await, and let/const can be declared again in a later cell.',
    'tool(name, input) inside a cell (await tool(...) in JavaScript) calls another of these tools and returns its ' +
      'text. A cell is interrupted after 5 minutes (time it waits on a tool() call does not count). Output is capped ' +
      '(at most 10 images, 5 MB, per cell). ' +
      'reset: true starts the kernel fresh.',
  ].join('\n'),
  inputSchema: {
    type: 'object',
    properties: {
      code: { type: 'string', minLength: 1, description: 'The cell to run.' },
      description: {
        type: 'string',
        minLength: 1,
        maxLength: 200,
        description: 'What the cell does, in 5–10 words: the label the human sees.',
      },
      language: { type: 'string', enum: EVAL_LANGUAGES, description: 'python (default) or javascript.' },
      reset: { type: 'boolean', description: "Drop this language's kernel and start a clean one first." },
    },
    required: ['code', 'description'],
    additionalProperties: false,
  },
};
