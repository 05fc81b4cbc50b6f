import * as vscode from 'vscode';
import { withDeadline } from '../../async/deadline';

/**
 * The editor's own language features, through its `vscode.execute*Provider` commands: the
 * editor's language clients are the supervisor here. Each call is bounded by a deadline and
 * stops waiting on cancellation.
 */
export class LanguageFeatures {
  constructor(
    private readonly timeoutSeconds: () => number,
    private readonly token: vscode.CancellationToken,
  ) {}

  private async run<T>(command: string, waitingFor: string, ...args: unknown[]): Promise<T> {
    if (this.token.isCancellationRequested) throw new vscode.CancellationError();
    let subscription: vscode.Disposable | undefined;
    const cancelled = new Promise<never>((_, reject) => {
      subscription = this.token.onCancellationRequested(() => reject(new vscode.CancellationError()));
    });
    try {
      return await withDeadline(
        Promise.race([vscode.commands.executeCommand<T>(command, ...args), cancelled]),
        this.timeoutSeconds(),
        waitingFor,
      );
    } finally {
      subscription?.dispose();
    }
  }

  async locations(
    command:
      | 'vscode.executeDefinitionProvider'
      | 'vscode.executeTypeDefinitionProvider'
      | 'vscode.executeImplementationProvider'
      | 'vscode.executeReferenceProvider',
    uri: vscode.Uri,
    position: vscode.Position,
  ): Promise<vscode.Location[]> {
    const found = await this.run<(vscode.Location | vscode.LocationLink)[] | undefined>(
      command,
      'the language server to answer',
      uri,
      position,
    );
    return (found ?? []).map((item) =>
      'targetUri' in item ? new vscode.Location(item.targetUri, item.targetSelectionRange ?? item.targetRange) : item,
    );
  }

  async hover(uri: vscode.Uri, position: vscode.Position): Promise<vscode.Hover[]> {
    return (await this.run<vscode.Hover[] | undefined>('vscode.executeHoverProvider', 'hover', uri, position)) ?? [];
  }

  async documentSymbols(uri: vscode.Uri): Promise<(vscode.DocumentSymbol | vscode.SymbolInformation)[]> {
    return (
      (await this.run<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
        'vscode.executeDocumentSymbolProvider',
        'document symbols',
        uri,
      )) ?? []
    );
  }

  async workspaceSymbols(query: string): Promise<vscode.SymbolInformation[]> {
    return (
      (await this.run<vscode.SymbolInformation[] | undefined>(
        'vscode.executeWorkspaceSymbolProvider',
        'workspace symbols',
        query,
      )) ?? []
    );
  }

  /** The actions offered for `range` (of `kind` when given); the first `resolveCount` come with their edits resolved. */
  async codeActions(
    uri: vscode.Uri,
    range: vscode.Range,
    kind?: string,
    resolveCount?: number,
  ): Promise<(vscode.CodeAction | vscode.Command)[]> {
    return (
      (await this.run<(vscode.CodeAction | vscode.Command)[] | undefined>(
        'vscode.executeCodeActionProvider',
        'code actions',
        uri,
        range,
        kind,
        resolveCount,
      )) ?? []
    );
  }

  /** The formatter's edits for the document, or for `range` of it; undefined when no formatter answered. */
  async format(
    uri: vscode.Uri,
    options: vscode.FormattingOptions,
    range?: vscode.Range,
  ): Promise<vscode.TextEdit[] | undefined> {
    return range
      ? this.run<vscode.TextEdit[] | undefined>(
          'vscode.executeFormatRangeProvider',
          'the formatter',
          uri,
          range,
          options,
        )
      : this.run<vscode.TextEdit[] | undefined>('vscode.executeFormatDocumentProvider', 'the formatter', uri, options);
  }

  async prepareCallHierarchy(uri: vscode.Uri, position: vscode.Position): Promise<vscode.CallHierarchyItem[]> {
    return (
      (await this.run<vscode.CallHierarchyItem[] | undefined>(
        'vscode.prepareCallHierarchy',
        'the call hierarchy',
        uri,
        position,
      )) ?? []
    );
  }

  async incomingCalls(item: vscode.CallHierarchyItem): Promise<vscode.CallHierarchyIncomingCall[]> {
    return (
      (await this.run<vscode.CallHierarchyIncomingCall[] | undefined>(
        'vscode.provideIncomingCalls',
        'callers',
        item,
      )) ?? []
    );
  }

  async outgoingCalls(item: vscode.CallHierarchyItem): Promise<vscode.CallHierarchyOutgoingCall[]> {
    return (
      (await this.run<vscode.CallHierarchyOutgoingCall[] | undefined>(
        'vscode.provideOutgoingCalls',
        'callees',
        item,
      )) ?? []
    );
  }

  async prepareTypeHierarchy(uri: vscode.Uri, position: vscode.Position): Promise<vscode.TypeHierarchyItem[]> {
    return (
      (await this.run<vscode.TypeHierarchyItem[] | undefined>(
        'vscode.prepareTypeHierarchy',
        'the type hierarchy',
        uri,
        position,
      )) ?? []
    );
  }

  async relatedTypes(
    direction: 'supertypes' | 'subtypes',
    item: vscode.TypeHierarchyItem,
  ): Promise<vscode.TypeHierarchyItem[]> {
    const command = direction === 'supertypes' ? 'vscode.provideSupertypes' : 'vscode.provideSubtypes';
    return (await this.run<vscode.TypeHierarchyItem[] | undefined>(command, direction, item)) ?? [];
  }

  async rename(uri: vscode.Uri, position: vscode.Position, newName: string): Promise<vscode.WorkspaceEdit | undefined> {
    return this.run<vscode.WorkspaceEdit | undefined>(
      'vscode.executeDocumentRenameProvider',
      'the rename edit',
      uri,
      position,
      newName,
    );
  }

  /** Raw tsserver request through the TypeScript extension's own command (allow-listed requests only). */
  async tsserver<T>(command: string, args: object): Promise<T | undefined> {
    return this.run<T | undefined>('typescript.tsserverRequest', 'the TypeScript server', command, args);
  }
}
