/** The shipped grammars, from grammars/grammars.json (bundled into the extension by esbuild). */
import manifest from '../../grammars/grammars.json';
import { GrammarEntry } from './languages';

/** The shipped grammar ids; grammars/grammars.json has one entry for each (a unit test checks). */
export const STRUCTURAL_LANGUAGES = [
  'bash',
  'c',
  'c_sharp',
  'cpp',
  'css',
  'dart',
  'go',
  'html',
  'java',
  'javascript',
  'json',
  'kotlin',
  'lua',
  'php',
  'python',
  'ruby',
  'rust',
  'swift',
  'tsx',
  'typescript',
  'yaml',
] as const;

export const GRAMMARS: readonly GrammarEntry[] = manifest as readonly GrammarEntry[];
