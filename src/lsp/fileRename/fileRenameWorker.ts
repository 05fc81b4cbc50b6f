/**
 * A thread that asks TypeScript's language service which edits moving one file needs
 * (`getEditsForFileRename`: the importers' specifiers and the moved file's own relative imports) —
 * the computation behind the editor's "update imports on file move". Bundled as
 * dist/fileRenameWorker.js; it loads the editor's bundled TypeScript from the path it is given, so
 * the extension host never parses the project.
 */
import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type * as ts from 'typescript';
import type { FileRenameRequest, FileRenameResult } from './fileRenameRequest';

function editsForFileRename(request: FileRenameRequest): FileRenameResult {
  const typescript = require(request.typescript) as typeof ts;
  let fileNames: string[];
  let options: ts.CompilerOptions;
  if (request.configPath) {
    const parsed = typescript.getParsedCommandLineOfConfigFile(
      request.configPath,
      {},
      { ...typescript.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    fileNames = parsed?.fileNames ?? [];
    options = parsed?.options ?? {};
  } else {
    fileNames = [...request.rootFiles];
    options = { allowJs: true, noEmit: true };
  }
  if (!fileNames.includes(request.oldPath)) fileNames.push(request.oldPath);
  const overrides = new Map(Object.entries(request.overrides));
  const read = (file: string): string | undefined => overrides.get(file) ?? typescript.sys.readFile(file);
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => fileNames,
    getScriptVersion: () => '1',
    getScriptSnapshot: (file) => {
      const text = read(file);
      return text === undefined ? undefined : typescript.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => path.dirname(request.configPath ?? request.oldPath),
    getCompilationSettings: () => options,
    getDefaultLibFileName: (compilerOptions) => typescript.getDefaultLibFilePath(compilerOptions),
    fileExists: (file) => overrides.has(file) || typescript.sys.fileExists(file),
    readFile: read,
    readDirectory: typescript.sys.readDirectory,
    directoryExists: typescript.sys.directoryExists,
    getDirectories: typescript.sys.getDirectories,
    realpath: typescript.sys.realpath,
    useCaseSensitiveFileNames: () => typescript.sys.useCaseSensitiveFileNames,
  };
  const service = typescript.createLanguageService(host, typescript.createDocumentRegistry());
  const changes = service.getEditsForFileRename(
    request.oldPath,
    request.newPath,
    typescript.getDefaultFormatCodeSettings(),
    { quotePreference: 'auto', importModuleSpecifierEnding: 'auto' },
  );
  return {
    files: changes
      .filter((change) => change.textChanges.length > 0)
      .map((change) => ({
        path: change.fileName,
        text: read(change.fileName) ?? '',
        edits: change.textChanges.map((edit) => ({
          start: edit.span.start,
          end: edit.span.start + edit.span.length,
          text: edit.newText,
        })),
      })),
  };
}

try {
  parentPort?.postMessage({ ok: true, result: editsForFileRename(workerData as FileRenameRequest) });
} catch (error) {
  parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
