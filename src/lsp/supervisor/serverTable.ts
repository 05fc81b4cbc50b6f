/**
 * Which language server and which whole-project checker serve a language, where a project of that
 * language is rooted (its marker files), and which editor extensions serve it instead of us.
 * Every field but the editor extensions can be overridden per language by `liveTools.lsp.servers`.
 */

export type CheckerFormat = 'tsc' | 'pyright-json' | 'go-vet' | 'cargo-json' | 'dart-machine';

export interface CommandLine {
  readonly command: string;
  readonly args: readonly string[];
}

export interface EditorExtension {
  readonly id: string;
  /** The command that restarts its server, if it has one. */
  readonly restartCommand?: string;
}

export interface LanguageEntry {
  /** Key of the table and of the settings override. */
  readonly id: string;
  readonly name: string;
  /** The editor's language ids this entry serves. */
  readonly languageIds: readonly string[];
  readonly server: CommandLine;
  readonly rootMarkers: readonly string[];
  /** Extensions that, when installed, serve the language: then we start nothing. */
  readonly editorExtensions: readonly EditorExtension[];
  readonly checker?: CommandLine & { readonly format: CheckerFormat };
  /**
   * What the server is told of its settings (initialization options, and every answer to its
   * `workspace/configuration` requests for `section`), in place of the workspace's: where a setting
   * would run the project's code, this keeps the server from it.
   */
  readonly settings?: { readonly section: string; readonly value: Readonly<Record<string, unknown>> };
  /** Why the server runs the project's own code however it is told: then it starts only where the user's settings allow it. */
  readonly runsProjectCode?: string;
}

/**
 * rust-analyzer runs the project's code unless told not to: build scripts (build.rs) and procedural
 * macros while it loads the project, `cargo check` (with both) on every save, and any override command
 * a workspace's settings name. Told not to, it still runs `cargo metadata`, which runs the rustc wrapper
 * a project's `.cargo/config.toml` names, and rustup runs the toolchain `rust-toolchain.toml` names: so
 * ours starts only where the user allows servers that run the project's code, and then without these.
 * The human's own rust-analyzer extension, when installed, serves Rust instead.
 */
export const RUST_ANALYZER_SETTINGS = {
  cargo: { buildScripts: { enable: false, overrideCommand: null } },
  procMacro: { enable: false },
  checkOnSave: false,
  check: { overrideCommand: null },
} as const;

export const LANGUAGE_TABLE: readonly LanguageEntry[] = [
  {
    id: 'typescript',
    name: 'TypeScript/JavaScript',
    languageIds: ['typescript', 'typescriptreact', 'javascript', 'javascriptreact'],
    server: { command: 'typescript-language-server', args: ['--stdio'] },
    rootMarkers: ['tsconfig.json', 'jsconfig.json'],
    editorExtensions: [{ id: 'vscode.typescript-language-features', restartCommand: 'typescript.restartTsServer' }],
    checker: { command: 'tsc', args: ['--noEmit', '--pretty', 'false', '-p', '.'], format: 'tsc' },
  },
  {
    id: 'python',
    name: 'Python',
    languageIds: ['python'],
    server: { command: 'pyright-langserver', args: ['--stdio'] },
    rootMarkers: ['pyproject.toml', 'setup.py', 'requirements.txt', 'pyrightconfig.json'],
    editorExtensions: [
      { id: 'ms-python.vscode-pylance', restartCommand: 'python.analysis.restartLanguageServer' },
      { id: 'ms-python.python', restartCommand: 'python.analysis.restartLanguageServer' },
      { id: 'ms-pyright.pyright', restartCommand: 'pyright.restartserver' },
      { id: 'detachhead.basedpyright', restartCommand: 'basedpyright.restartserver' },
    ],
    checker: { command: 'pyright', args: ['--outputjson'], format: 'pyright-json' },
  },
  {
    id: 'go',
    name: 'Go',
    languageIds: ['go'],
    server: { command: 'gopls', args: [] },
    rootMarkers: ['go.mod'],
    editorExtensions: [{ id: 'golang.go', restartCommand: 'go.languageserver.restart' }],
    checker: { command: 'go', args: ['vet', './...'], format: 'go-vet' },
  },
  {
    id: 'c',
    name: 'C/C++',
    languageIds: ['c', 'cpp', 'objective-c', 'objective-cpp'],
    server: { command: 'clangd', args: [] },
    rootMarkers: ['compile_commands.json', 'CMakeLists.txt', '.clangd'],
    editorExtensions: [
      { id: 'llvm-vs-code-extensions.vscode-clangd', restartCommand: 'clangd.restart' },
      { id: 'ms-vscode.cpptools' },
    ],
  },
  {
    id: 'rust',
    name: 'Rust',
    languageIds: ['rust'],
    server: { command: 'rust-analyzer', args: [] },
    rootMarkers: ['Cargo.toml'],
    editorExtensions: [{ id: 'rust-lang.rust-analyzer', restartCommand: 'rust-analyzer.restartServer' }],
    settings: { section: 'rust-analyzer', value: RUST_ANALYZER_SETTINGS },
    runsProjectCode:
      "it runs cargo, which runs the rustc wrapper and toolchain the project's configuration names (.cargo/config.toml, rust-toolchain.toml)",
    checker: { command: 'cargo', args: ['check', '--message-format=json', '--quiet'], format: 'cargo-json' },
  },
  {
    id: 'dart',
    name: 'Dart',
    languageIds: ['dart'],
    server: { command: 'dart', args: ['language-server', '--protocol=lsp'] },
    rootMarkers: ['pubspec.yaml'],
    editorExtensions: [{ id: 'Dart-Code.dart-code', restartCommand: 'dart.restartAnalysisServer' }],
    checker: { command: 'dart', args: ['analyze', '--format=machine'], format: 'dart-machine' },
  },
];

/** One language's override in `liveTools.lsp.servers` (every key optional). */
export interface LanguageOverride {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly rootMarkers?: readonly string[];
  readonly checkerCommand?: string;
  readonly checkerArgs?: readonly string[];
  /** false: never start our server for this language. */
  readonly enabled?: boolean;
}

export type LanguageOverrides = Readonly<Record<string, LanguageOverride | undefined>>;

export interface EffectiveEntry extends LanguageEntry {
  readonly enabled: boolean;
  /** Which fields a setting changed, for status. */
  readonly overridden: readonly string[];
}

function strings(value: unknown): readonly string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? (value as string[]) : undefined;
}

/** The table with the settings' overrides applied; malformed fields are ignored. */
export function effectiveTable(
  overrides: LanguageOverrides = {},
  table: readonly LanguageEntry[] = LANGUAGE_TABLE,
): EffectiveEntry[] {
  return table.map((entry) => {
    const override = overrides[entry.id] ?? {};
    const overridden: string[] = [];
    const command =
      typeof override.command === 'string' && override.command
        ? (overridden.push('command'), override.command)
        : entry.server.command;
    const args = strings(override.args) ? (overridden.push('args'), strings(override.args)!) : entry.server.args;
    const rootMarkers = strings(override.rootMarkers)
      ? (overridden.push('rootMarkers'), strings(override.rootMarkers)!)
      : entry.rootMarkers;
    let checker = entry.checker;
    if (checker && typeof override.checkerCommand === 'string' && override.checkerCommand) {
      overridden.push('checkerCommand');
      checker = { ...checker, command: override.checkerCommand };
    }
    if (checker && strings(override.checkerArgs)) {
      overridden.push('checkerArgs');
      checker = { ...checker, args: strings(override.checkerArgs)! };
    }
    const enabled = override.enabled !== false;
    if (!enabled) overridden.push('enabled');
    return { ...entry, server: { command, args }, rootMarkers, checker, enabled, overridden };
  });
}

export function entryForLanguageId(table: readonly EffectiveEntry[], languageId: string): EffectiveEntry | undefined {
  return table.find((entry) => entry.languageIds.includes(languageId));
}
