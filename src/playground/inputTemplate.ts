/**
 * The input a person starts from in the Run Tool playground: a JSON-with-comments object
 * holding every required key with a placeholder, and the optional keys described above it.
 */
import { JsonSchema } from '../platform/toolDeclaration';

function placeholder(schema: JsonSchema): unknown {
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  switch (schema.type) {
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return '';
  }
}

function describe(name: string, schema: JsonSchema): string {
  const type = schema.enum ? schema.enum.join(' | ') : (schema.type ?? 'any');
  const description = (schema.description ?? '').replace(/\s+/g, ' ').trim();
  return `//   ${name} (${type})${description ? `: ${description}` : ''}`;
}

export interface TemplateHeader {
  readonly title: string;
  readonly howToRun: string;
}

export function inputTemplate(schema: JsonSchema | undefined, header: TemplateHeader): string {
  const properties = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  const requiredNames = Object.keys(properties).filter((name) => required.has(name));
  const optionalNames = Object.keys(properties).filter((name) => !required.has(name));
  const lines = [`// ${header.title}`, `// ${header.howToRun}`];
  if (requiredNames.length > 0) {
    lines.push('// Required:');
    for (const name of requiredNames) lines.push(describe(name, properties[name]));
  }
  if (optionalNames.length > 0) {
    lines.push('// Optional (add them to the object as needed):');
    for (const name of optionalNames) lines.push(describe(name, properties[name]));
  }
  const body: Record<string, unknown> = {};
  for (const name of requiredNames) body[name] = placeholder(properties[name]);
  lines.push(JSON.stringify(body, null, 2));
  return `${lines.join('\n')}\n`;
}
