/**
 * What a tool declares about itself, without `vscode`: name, tier, the live resource it needs,
 * its input schema and the words people and models read. Each tool's `declaration.ts` fills one in.
 */
import { ResourceId } from './resources';
import { Tier } from './tiers';
import { ToolName } from './toolNames';

export interface JsonSchema {
  readonly type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'array';
  readonly description?: string;
  readonly enum?: readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly anyOf?: readonly JsonSchema[];
  /** false: no other keys; a schema: what every other key's value must be (a map such as `env`). */
  readonly additionalProperties?: boolean | JsonSchema;
}

export interface ToolDeclaration {
  readonly name: ToolName;
  readonly tier: Tier;
  readonly resource: ResourceId;
  readonly displayName: string;
  /** Shown to people in the tools picker. */
  readonly userDescription: string;
  /** Read by the model: what the tool is for, how to address things, what comes back. */
  readonly modelDescription: string;
  /** A codicon reference such as `$(symbol-class)`. */
  readonly icon: string;
  readonly inputSchema: JsonSchema & { readonly type: 'object' };
}
