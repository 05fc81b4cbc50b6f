import * as vscode from 'vscode';
import { LanguageClient, TypeHierarchyMiddleware } from 'vscode-languageclient/node';
import {
  isMethodNotFound,
  LEGACY_TYPE_HIERARCHY_METHOD,
  LegacyDirection,
  legacyParams,
  LegacyTypeHierarchyItem,
  servesLegacyTypeHierarchy,
} from '../supervisor/legacyTypeHierarchy';

/**
 * Type hierarchy middleware for one of our language clients: the standard requests first; once the
 * server answers "method not found", the earlier proposal (`textDocument/typeHierarchy`) for the
 * rest of its life. The editor's Type Hierarchy view and `lsp supertypes/subtypes` then work for it.
 */
export function legacyTypeHierarchy(client: () => LanguageClient): TypeHierarchyMiddleware {
  let legacy: boolean | undefined;
  const toItem = (item: LegacyTypeHierarchyItem): vscode.TypeHierarchyItem => {
    const converter = client().protocol2CodeConverter;
    return new vscode.TypeHierarchyItem(
      converter.asSymbolKind(item.kind as never),
      item.name,
      item.detail ?? '',
      converter.asUri(item.uri),
      converter.asRange(item.range),
      converter.asRange(item.selectionRange),
    );
  };
  const ask = async (
    uri: vscode.Uri,
    position: vscode.Position,
    direction: LegacyDirection,
    token: vscode.CancellationToken,
  ): Promise<LegacyTypeHierarchyItem | undefined> => {
    const answer = await client().sendRequest<LegacyTypeHierarchyItem | null>(
      LEGACY_TYPE_HIERARCHY_METHOD,
      legacyParams(
        client().code2ProtocolConverter.asUri(uri),
        { line: position.line, character: position.character },
        direction,
        1,
      ),
      token,
    );
    return answer ?? undefined;
  };
  const related = async (
    item: vscode.TypeHierarchyItem,
    direction: LegacyDirection,
    token: vscode.CancellationToken,
  ): Promise<vscode.TypeHierarchyItem[]> => {
    const answer = await ask(item.uri, item.selectionRange.start, direction, token);
    const found = direction === LegacyDirection.Parents ? answer?.parents : answer?.children;
    return (found ?? []).map(toItem);
  };
  return {
    prepareTypeHierarchy: async (document, position, token, next) => {
      legacy ??= servesLegacyTypeHierarchy(client().initializeResult?.serverInfo);
      if (!legacy) {
        try {
          return await next(document, position, token);
        } catch (error) {
          if (!isMethodNotFound(error)) throw error;
          legacy = true;
        }
      }
      const answer = await ask(document.uri, position, LegacyDirection.Parents, token);
      return answer ? [toItem(answer)] : [];
    },
    provideTypeHierarchySupertypes: (item, token, next) =>
      legacy === true ? related(item, LegacyDirection.Parents, token) : next(item, token),
    provideTypeHierarchySubtypes: (item, token, next) =>
      legacy === true ? related(item, LegacyDirection.Children, token) : next(item, token),
  };
}
