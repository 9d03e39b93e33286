/**
 * The shape of one MCP tool as Engram defines it (STYLE §3): a name, the config the SDK
 * registers (zod input/output schemas, annotations, a description written for agents), a `run`
 * that returns domain data, and a `render` that turns that data into the compact text of
 * `content[0].text`. server.ts wraps every tool the same way; the UI may call `run` directly.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { CallContext } from '../core/schemas';
import type { EngineApi } from '../engine/types';

/** One tool. `run` gets input already validated by the SDK against `inputSchema`. */
export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
	name: string;
	config: {
		title: string;
		description: string;
		inputSchema: I;
		outputSchema: O;
		annotations: ToolAnnotations;
	};
	run(input: z.output<I>, engine: EngineApi, ctx: CallContext): Promise<z.output<O>>;
	/** Text for the agent: one string, or several content blocks (AutoMem's `items` format). */
	render(output: z.output<O>, input: z.output<I>): string | string[];
}

/** A tool of any schema pair, as profiles list them (`any`: run/render are contravariant). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: no narrower type admits every tool
export type AnyToolDefinition = ToolDefinition<any, any>;

/** Identity with inference: `defineTool({...})` types `run` and `render` from the schemas. */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
	return def;
}

/** Kept here too: tools import READ_ONLY with defineTool. */
export { READ_ONLY } from './annotations';
