/**
 * Checks a tool input against its declared schema before any work starts: unknown keys,
 * missing required keys, wrong types and values outside an enum all come back together in
 * one InputError, worded so the model can fix the call.
 */
import { JsonSchema } from './catalog';

export class InputError extends Error {
  constructor(
    readonly problems: readonly string[],
    readonly hint?: string,
  ) {
    super(problems.join(' '));
    this.name = 'InputError';
  }
}

function typeMatches(schema: JsonSchema, value: unknown): boolean {
  switch (schema.type) {
    case undefined:
      return true;
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      return typeof value === schema.type;
  }
}

export function validateInput(schema: JsonSchema & { type: 'object' }, input: unknown): void {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InputError(['The input must be a JSON object.']);
  }
  const record = input as Record<string, unknown>;
  const properties = schema.properties ?? {};
  const problems: string[] = [];
  for (const key of schema.required ?? []) {
    if (record[key] === undefined || record[key] === null) problems.push(`Missing "${key}".`);
  }
  for (const [key, value] of Object.entries(record)) {
    const property = properties[key];
    if (!property) {
      if (schema.additionalProperties === false) {
        problems.push(`Unknown argument "${key}" (accepted: ${Object.keys(properties).join(', ')}).`);
      }
      continue;
    }
    if (value === undefined || value === null) continue;
    if (!typeMatches(property, value)) {
      problems.push(`"${key}" must be ${property.type === 'integer' ? 'a whole number' : `a ${property.type}`}.`);
    } else if (property.enum && !property.enum.includes(value as string)) {
      problems.push(`"${key}" must be one of ${property.enum.join(', ')}; got "${String(value)}".`);
    } else if (property.minimum !== undefined && typeof value === 'number' && value < property.minimum) {
      problems.push(`"${key}" must be at least ${property.minimum}.`);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
}
