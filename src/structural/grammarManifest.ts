/** The shipped grammars, from grammars/grammars.json (bundled into the extension by esbuild). */
import manifest from '../../grammars/grammars.json';
import { GrammarEntry } from './languages';

export const GRAMMARS: readonly GrammarEntry[] = manifest as readonly GrammarEntry[];
