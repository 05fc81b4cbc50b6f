/**
 * Rewrites one cell of the JavaScript kernel into a classic script for the kernel's global scope:
 * top-level `let`/`const`/`class`/`import` become assignments to `var` globals (so a later cell can
 * declare them again, as in the Node REPL), and a cell with top-level `await` becomes an async arrow
 * call whose promise resolves to `{ value }` of its last expression statement (or undefined).
 * Pure: the caller passes a tree-sitter JavaScript parse. Line numbers are kept; columns shift on the
 * first line (hoisted `var`s, the wrapper) and before a rewritten declaration or last expression.
 */
import type { Node, Tree } from 'web-tree-sitter';

export interface TransformedCell {
  /** A classic script. When `async`, its completion value is a Promise of `{ value }` or undefined. */
  readonly code: string;
  readonly async: boolean;
  /** Names the cell declares at top level, now globals. */
  readonly declared: readonly string[];
}

/** Parses JavaScript (the kernel passes web-tree-sitter's parser with the JavaScript grammar). */
export type ParseJavaScript = (source: string) => Tree | null;

/** The global the rewritten `import` statements call: `(specifier) => Promise<namespace>`. */
export const IMPORT_FUNCTION = '__kernelImport';

/** Scopes of their own: `await`, `var` and declarations inside them are left alone. */
const FUNCTION_LIKE = new Set([
  'function_declaration',
  'generator_function_declaration',
  'function_expression',
  'function',
  'generator_function',
  'arrow_function',
  'method_definition',
  'class_body',
]);

interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * The rewritten cell; a cell that does not parse is returned as it is, so that V8 reports the
 * syntax error in the user's own text.
 */
export function transformCell(source: string, parse: ParseJavaScript): TransformedCell {
  const tree = parse(source);
  if (!tree) return { code: source, async: false, declared: [] };
  try {
    if (tree.rootNode.hasError) return { code: source, async: false, declared: [] };
    return rewrite(source, tree.rootNode);
  } finally {
    tree.delete();
  }
}

function rewrite(source: string, program: Node): TransformedCell {
  const statements = program.namedChildren.filter((node) => node.type !== 'comment');
  const isAsync = statements.some((node) => node.type === 'import_statement') || containsTopLevelAwait(program);
  const declared: string[] = [];
  const edits: Edit[] = [];
  const exportedFunctions: string[] = [];

  for (const statement of statements) {
    const inner = statement.type === 'export_statement' ? statement.childForFieldName('declaration') : statement;
    if (!inner) continue;
    const exportPrefix =
      inner === statement ? undefined : { start: statement.startIndex, end: inner.startIndex, text: '' };
    const before = edits.length;
    switch (inner.type) {
      case 'lexical_declaration':
      case 'variable_declaration':
        edits.push(declarationEdit(source, inner, declared));
        break;
      case 'class_declaration': {
        const name = inner.childForFieldName('name');
        if (name) {
          declared.push(name.text);
          edits.push(keepLines(source, inner, `void (${name.text} = ${inner.text});`));
        }
        break;
      }
      case 'function_declaration':
      case 'generator_function_declaration': {
        const name = inner.childForFieldName('name');
        // In a script, function declarations are globals already; inside the async wrapper they are exported by hand.
        if (name && isAsync) exportedFunctions.push(name.text);
        break;
      }
      case 'import_statement':
        edits.push(keepLines(source, inner, importStatement(inner, declared)));
        break;
    }
    if (exportPrefix && edits.length > before) edits.push(exportPrefix);
  }

  if (isAsync) edits.push(...nestedVarEdits(source, program, statements, declared));

  const last = statements.at(-1);
  const lastExpression =
    last?.type === 'expression_statement' ? last.namedChildren.find((node) => node.type !== 'comment') : undefined;
  if (lastExpression && isAsync) {
    edits.push({ start: lastExpression.startIndex, end: lastExpression.startIndex, text: 'return { value: (' });
    edits.push({ start: lastExpression.endIndex, end: lastExpression.endIndex, text: ') }' });
  } else if (lastExpression?.type === 'object') {
    // `{ a: 1 }` alone reads as an object to the parser but as a block to V8: say what the parser saw.
    edits.push({ start: lastExpression.startIndex, end: lastExpression.startIndex, text: '(' });
    edits.push({ start: lastExpression.endIndex, end: lastExpression.endIndex, text: ')' });
  }

  let body = applyEdits(source, edits);
  const names = [...new Set(declared)];
  // Everything added goes on the first line, so that line numbers in stack traces are the cell's.
  const hoisted = names.length > 0 ? `var ${names.join(', ')}; ` : '';
  if (isAsync) {
    const exports = [...new Set(exportedFunctions)].map((name) => `globalThis.${name} = ${name}; `).join('');
    body = `${hoisted}(async () => { ${exports}${body}\n})()`;
  } else {
    body = `${hoisted}${body}`;
  }
  return { code: body, async: isAsync, declared: names };
}

/** Whether an `await` or `for await` occurs outside every function of the cell. */
function containsTopLevelAwait(node: Node): boolean {
  for (const child of node.children) {
    if (child.type === 'await_expression') return true;
    if (child.type === 'for_in_statement' && child.children.some((token) => token.type === 'await')) return true;
    if (FUNCTION_LIKE.has(child.type)) continue;
    if (containsTopLevelAwait(child)) return true;
  }
  return false;
}

/**
 * `let a = 1, { b } = o;` → `void ((a = 1), ({ b } = o));` with a, b declared. A declarator without
 * a value resets a `let` to undefined (as the REPL does) and leaves a `var` as it was.
 */
function declarationEdit(source: string, declaration: Node, declared: string[]): Edit {
  const isVar = declaration.children[0]?.type === 'var';
  const parts: string[] = [];
  for (const declarator of declaration.namedChildren) {
    if (declarator.type !== 'variable_declarator') continue;
    const name = declarator.childForFieldName('name');
    if (!name) continue;
    patternNames(name, declared);
    const value = declarator.childForFieldName('value');
    if (value) parts.push(`(${name.text} = ${value.text})`);
    else if (!isVar) parts.push(`(${name.text} = undefined)`);
  }
  const ownSemicolon = declaration.text.endsWith(';');
  const text = parts.length > 0 ? `void (${parts.join(', ')})` : 'void 0';
  // A declaration in a `for (…;` head keeps its semicolon; a statement gets one.
  return keepLines(
    source,
    declaration,
    ownSemicolon || declaration.parent?.type !== 'for_statement' ? `${text};` : text,
  );
}

/** The names a binding pattern declares (not its default values or computed keys). */
function patternNames(node: Node, names: string[]): void {
  switch (node.type) {
    case 'identifier':
    case 'shorthand_property_identifier_pattern':
      names.push(node.text);
      return;
    case 'pair_pattern': {
      const value = node.childForFieldName('value');
      if (value) patternNames(value, names);
      return;
    }
    case 'assignment_pattern':
    case 'object_assignment_pattern': {
      const left = node.childForFieldName('left');
      if (left) patternNames(left, names);
      return;
    }
    case 'object_pattern':
    case 'array_pattern':
    case 'rest_pattern':
      for (const child of node.namedChildren) patternNames(child, names);
      return;
  }
}

/**
 * `import d, { a, b as c } from 'm'` → `void (({ default: d, a: a, b: c } = await __kernelImport("m")));`
 * `import * as ns from 'm'` → `void ((ns = await __kernelImport("m")));`
 */
function importStatement(statement: Node, declared: string[]): string {
  const sourceNode = statement.childForFieldName('source');
  const specifier = sourceNode ? stringValue(sourceNode) : '';
  const load = `await ${IMPORT_FUNCTION}(${JSON.stringify(specifier)})`;
  const clause = statement.namedChildren.find((node) => node.type === 'import_clause');
  if (!clause) return `void (${load});`;
  let defaultName: string | undefined;
  let namespace: string | undefined;
  const properties: string[] = [];
  for (const part of clause.namedChildren) {
    if (part.type === 'identifier') defaultName = part.text;
    else if (part.type === 'namespace_import')
      namespace = part.namedChildren.find((node) => node.type === 'identifier')?.text;
    else if (part.type === 'named_imports') {
      for (const specifierNode of part.namedChildren) {
        if (specifierNode.type !== 'import_specifier') continue;
        const name = specifierNode.childForFieldName('name');
        if (!name) continue;
        const local = specifierNode.childForFieldName('alias')?.text ?? name.text;
        properties.push(`${name.type === 'string' ? JSON.stringify(stringValue(name)) : name.text}: ${local}`);
        declared.push(local);
      }
    }
  }
  if (defaultName) declared.push(defaultName);
  if (namespace) {
    declared.push(namespace);
    const parts = [`(${namespace} = ${load})`];
    if (defaultName) parts.push(`(${defaultName} = ${namespace}.default)`);
    if (properties.length > 0) parts.push(`({ ${properties.join(', ')} } = ${namespace})`);
    return `void (${parts.join(', ')});`;
  }
  if (defaultName) properties.unshift(`default: ${defaultName}`);
  return `void (({ ${properties.join(', ')} } = ${load}));`;
}

/** The value of a string literal node (the parser has checked it is one). */
function stringValue(node: Node): string {
  const text = node.text;
  try {
    return text.startsWith('"')
      ? (JSON.parse(text) as string)
      : (JSON.parse(`"${text.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as string);
  } catch {
    return text.slice(1, -1);
  }
}

/**
 * Inside the async wrapper a `var` would be local to it: `var` statements in blocks and loop heads
 * outside functions become assignments to declared globals too (top-level statements are done).
 */
function nestedVarEdits(source: string, program: Node, statements: readonly Node[], declared: string[]): Edit[] {
  const edits: Edit[] = [];
  const topLevel = new Set(statements.map((node) => node.id));
  const visit = (node: Node): void => {
    for (const child of node.namedChildren) {
      if (FUNCTION_LIKE.has(child.type)) continue;
      if (child.type === 'variable_declaration' && !topLevel.has(child.id)) {
        edits.push(declarationEdit(source, child, declared));
        continue;
      }
      if (child.type === 'for_in_statement') {
        const keyword = child.children.find((token) => token.type === 'var');
        const left = child.childForFieldName('left');
        if (keyword && left) {
          edits.push({ start: keyword.startIndex, end: keyword.endIndex, text: '' });
          patternNames(left, declared);
        }
      }
      if (topLevel.has(child.id) && child.type !== 'expression_statement' && isRewrittenTopLevel(child)) continue;
      visit(child);
    }
  };
  visit(program);
  return edits;
}

/** Top-level statements whose whole text `rewrite` replaces (nothing inside them may be edited). */
function isRewrittenTopLevel(node: Node): boolean {
  const inner = node.type === 'export_statement' ? node.childForFieldName('declaration') : node;
  return (
    inner !== null &&
    ['lexical_declaration', 'variable_declaration', 'class_declaration', 'import_statement'].includes(inner.type)
  );
}

/** Replaces `node` by `text`, padded with the newlines it had so that later lines keep their numbers. */
function keepLines(source: string, node: Node, text: string): Edit {
  const lost = countNewlines(source.slice(node.startIndex, node.endIndex)) - countNewlines(text);
  return { start: node.startIndex, end: node.endIndex, text: lost > 0 ? text + '\n'.repeat(lost) : text };
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

/** Applies non-overlapping edits (insertions at one offset keep the order they were pushed in). */
function applyEdits(source: string, edits: readonly Edit[]): string {
  const ordered = edits
    .map((edit, order) => ({ edit, order }))
    .sort((a, b) => a.edit.start - b.edit.start || a.order - b.order);
  let result = '';
  let cursor = 0;
  for (const { edit } of ordered) {
    result += source.slice(cursor, edit.start) + edit.text;
    cursor = Math.max(cursor, edit.end);
  }
  return result + source.slice(cursor);
}
