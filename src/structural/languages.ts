/**
 * The language registry of the structural engine: which grammar serves which file, and the
 * loaded tree-sitter languages. Grammars load lazily, once, from wherever `locateWasm` says
 * (dist/grammars in the extension, node_modules in tests and the command line).
 */
import * as path from 'node:path';
import { Language, Parser } from 'web-tree-sitter';
import { ModelFacingError } from '../platform/modelFacingError';

/** One entry of grammars/grammars.json. */
export interface GrammarEntry {
  readonly id: string;
  readonly extensions: readonly string[];
  readonly package: string;
  readonly version: string;
  /** Path of the `.wasm` inside the package. */
  readonly wasm: string;
  /** Scaffold contexts a pattern fragment is parsed in, tried in order. */
  readonly ladder: readonly ScaffoldContext[];
  /**
   * Metavariables are written as strings (`"mvs_X"`) where a bare identifier is not valid
   * code (JSON); a string whose text is the placeholder is then the metavariable.
   */
  readonly quotedMetavariables?: boolean;
  /**
   * What makes a metavariable a statement, written after it where it stands alone in a block
   * (`{ $$$A }`): `;` where statements end with one, `();` in C#, where a bare name is no statement.
   */
  readonly metavariableStatement?: string;
  /**
   * A reading of the fragment in another rung that also matches, by the type of the node it was
   * read as: Dart's class method (`method_declaration`, its signature wrapped in a
   * `method_signature`) for a function pattern, which reads as a top-level or local function.
   */
  readonly alsoReadIn?: Readonly<Record<string, string>>;
  /**
   * Types of the nodes that may be written before that other reading's node and that the grammar
   * keeps as its siblings (Dart's annotations, above a method): a match has them right before it.
   */
  readonly leadingTypes?: readonly string[];
}

export interface ScaffoldContext {
  readonly context: string;
  /** Contains `{{fragment}}` exactly once. */
  readonly template: string;
}

export const FRAGMENT_MARKER = '{{fragment}}';

export class UnknownLanguage extends ModelFacingError {
  constructor(
    readonly language: string,
    readonly known: readonly string[],
  ) {
    super(`Unknown language "${language}". Shipped grammars: ${known.join(', ')}.`);
    this.name = 'UnknownLanguage';
  }
}

export interface LoadedLanguage {
  readonly entry: GrammarEntry;
  readonly language: Language;
  /** One parser per language, reused for every file (parsers are not thread-bound in wasm). */
  readonly parser: Parser;
}

export interface LanguageRegistryOptions {
  readonly grammars: readonly GrammarEntry[];
  /** Absolute path of a grammar's `.wasm`. */
  readonly locateWasm: (entry: GrammarEntry) => string;
  /** Absolute path of `web-tree-sitter.wasm`, when it is not beside the runtime module. */
  readonly runtimeWasm?: string;
  /** The runtime's wasm memory, made by the caller to measure it (engineMemory.ts `parserMemory`). */
  readonly wasmMemory?: unknown;
}

export class LanguageRegistry {
  private initialised: Promise<void> | undefined;
  private readonly loaded = new Map<string, Promise<LoadedLanguage>>();
  private readonly byExtension = new Map<string, GrammarEntry>();

  constructor(private readonly options: LanguageRegistryOptions) {
    for (const entry of options.grammars) {
      for (const extension of entry.extensions) {
        if (!this.byExtension.has(extension)) this.byExtension.set(extension.toLowerCase(), entry);
      }
    }
  }

  get ids(): string[] {
    return this.options.grammars.map((entry) => entry.id);
  }

  entry(id: string): GrammarEntry {
    const entry = this.options.grammars.find((candidate) => candidate.id === id);
    if (!entry) throw new UnknownLanguage(id, this.ids);
    return entry;
  }

  /** The grammar for a file name, by extension; undefined when no grammar serves it. */
  entryForFile(file: string): GrammarEntry | undefined {
    return this.byExtension.get(path.extname(file).toLowerCase());
  }

  load(id: string): Promise<LoadedLanguage> {
    let loading = this.loaded.get(id);
    if (!loading) {
      const entry = this.entry(id);
      loading = this.init().then(async () => {
        const language = await Language.load(this.options.locateWasm(entry));
        const parser = new Parser();
        parser.setLanguage(language);
        return { entry, language, parser };
      });
      loading.catch(() => this.loaded.delete(id));
      this.loaded.set(id, loading);
    }
    return loading;
  }

  private init(): Promise<void> {
    const { runtimeWasm, wasmMemory } = this.options;
    this.initialised ??= Parser.init({
      ...(runtimeWasm ? { locateFile: () => runtimeWasm } : {}),
      ...(wasmMemory ? { wasmMemory } : {}),
    } as Parameters<typeof Parser.init>[0]);
    return this.initialised;
  }
}
