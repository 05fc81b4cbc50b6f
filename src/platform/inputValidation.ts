/**
 * Checks a tool input against its whole declared schema (nested objects, array items, bounds,
 * lengths, alternatives) with ajv before any work starts. Every problem comes back at once in one
 * InputError, each worded so the model can fix the call: where (`options[0].label`), what is wrong,
 * what is accepted. A `null` given for a top-level key counts as leaving it out (models send that
 * for "no value").
 */
import type { default as Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { ModelFacingError } from './modelFacingError';
import { JsonSchema } from './toolDeclaration';

export class InputError extends ModelFacingError {
  constructor(
    readonly problems: readonly string[],
    readonly hint?: string,
  ) {
    super(problems.join(' '));
    this.name = 'InputError';
  }

  override modelText(): string {
    return `Error: ${this.problems.join(' ')}${this.hint ? ` ${this.hint}` : ''}`;
  }
}

type ObjectSchema = JsonSchema & { type: 'object' };

// The catalog's schemas are ours and fixed: compiled once each, on first use. ajv itself is loaded and built
// by the first validation too (its modules and meta-schema cost ~4–8 ms, measured: not activation's to pay).
let ajv: Ajv | undefined;
const compiled = new WeakMap<ObjectSchema, ValidateFunction>();

function compilerNow(): Ajv {
  if (!ajv) {
    const { default: AjvClass } = require('ajv') as typeof import('ajv');
    ajv = new AjvClass({ allErrors: true, strict: false, verbose: true });
  }
  return ajv;
}

export function validateInput(schema: ObjectSchema, input: unknown): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InputError(['The input must be a JSON object.']);
  }
  const record = withoutNulls(input as Record<string, unknown>);
  let validate = compiled.get(schema);
  if (!validate) compiled.set(schema, (validate = compilerNow().compile(schema)));
  if (validate(record)) return;
  const problems = [...new Set(wordedErrors(schema, validate.errors ?? []))];
  if (problems.length > 0) throw new InputError(problems);
}

/** A required key given as null is then reported missing, as it is. */
function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (value !== null) kept[key] = value;
  return kept;
}

/** `/options/0/label` → `options[0].label`; the top level is "the input". */
function placeOf(instancePath: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  let place = '';
  for (const part of parts) place += /^\d+$/.test(part) ? `[${part}]` : place ? `.${part}` : part;
  return place;
}

/** The schema at a JSON pointer of ajv's `schemaPath` (`#/properties/lines/items/anyOf`). */
function schemaAt(root: JsonSchema, schemaPath: string): JsonSchema | undefined {
  let node: unknown = root;
  for (const part of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node as JsonSchema | undefined;
}

/** What a schema accepts, in words; with its bounds when it is one of several alternatives. */
function kindOf(schema: JsonSchema, withBounds = false): string {
  switch (schema.type) {
    case 'integer':
      return withBounds && schema.minimum !== undefined
        ? `a whole number (at least ${schema.minimum})`
        : 'a whole number';
    case 'array':
      return 'a list';
    case 'object':
      return schema.properties
        ? `an object {${Object.keys(schema.properties)
            .map((key) => (schema.required?.includes(key) ? key : `${key}?`))
            .join(', ')}}`
        : 'an object';
    case undefined:
      return 'a value';
    default:
      return `a ${schema.type}`;
  }
}

function wordedErrors(root: ObjectSchema, errors: readonly ErrorObject[]): string[] {
  // A failed alternative is said once, as the alternatives it accepts, not as each branch's complaint.
  const alternatives = errors
    .filter((error) => error.keyword === 'anyOf' || error.keyword === 'oneOf')
    .map((error) => `${error.schemaPath}/`);
  const problems: string[] = [];
  for (const error of errors) {
    if (alternatives.some((prefix) => error.schemaPath.startsWith(prefix))) continue;
    const place = placeOf(error.instancePath);
    const quoted = `"${place}"`;
    const params = error.params as Record<string, unknown>;
    switch (error.keyword) {
      case 'required': {
        const missing = String(params.missingProperty);
        problems.push(`Missing "${place ? `${place}.${missing}` : missing}".`);
        break;
      }
      case 'additionalProperties': {
        const accepted = Object.keys(
          schemaAt(root, error.schemaPath.replace(/\/additionalProperties$/, ''))?.properties ?? {},
        );
        const key = String(params.additionalProperty);
        problems.push(
          place
            ? `Unknown key "${key}" in ${quoted} (accepted: ${accepted.join(', ')}).`
            : `Unknown argument "${key}" (accepted: ${accepted.join(', ')}).`,
        );
        break;
      }
      case 'type': {
        const schema = schemaAt(root, error.schemaPath.replace(/\/type$/, ''));
        problems.push(`${quoted} must be ${schema ? kindOf(schema) : `a ${String(params.type)}`}.`);
        break;
      }
      case 'enum':
        problems.push(
          `${quoted} must be one of ${(params.allowedValues as unknown[]).join(', ')}; got ${JSON.stringify(error.data)}.`,
        );
        break;
      case 'minimum':
        problems.push(`${quoted} must be at least ${String(params.limit)}.`);
        break;
      case 'maximum':
        problems.push(`${quoted} must be at most ${String(params.limit)}.`);
        break;
      case 'minLength':
        problems.push(
          Number(params.limit) === 1
            ? `${quoted} must not be empty.`
            : `${quoted} must be at least ${String(params.limit)} characters long.`,
        );
        break;
      case 'maxLength':
        problems.push(`${quoted} must be at most ${String(params.limit)} characters long.`);
        break;
      case 'minItems':
        problems.push(`${quoted} must have at least ${String(params.limit)} item(s).`);
        break;
      case 'maxItems':
        problems.push(`${quoted} must have at most ${String(params.limit)} items.`);
        break;
      case 'anyOf':
      case 'oneOf': {
        const branches = (schemaAt(root, error.schemaPath) as unknown as JsonSchema[] | undefined) ?? [];
        problems.push(`${quoted} must be ${branches.map((branch) => kindOf(branch, true)).join(' or ')}.`);
        break;
      }
      default:
        problems.push(`${quoted || 'The input'} ${error.message ?? 'is not valid'}.`);
    }
  }
  return problems;
}
