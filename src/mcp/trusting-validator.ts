/**
 * A JSON Schema "validator" for the SDK's `Client` in the page that accepts every value. The SDK's
 * default (Ajv) compiles schemas with `new Function`, which the app's Content-Security-Policy
 * refuses ('unsafe-eval' is not allowed), so an in-page Client would fail at `listTools`.
 *
 * Only for clients of Engram's own server: it validates every tool result against the tool's
 * output schema (zod) before sending it, so the client's second check adds nothing.
 */
import type { JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

/** Accepts every value unchanged (see the module comment for when that is right). */
export const trustingValidator: jsonSchemaValidator = {
	getValidator<T>(): JsonSchemaValidator<T> {
		return (input) => ({ valid: true, data: input as T, errorMessage: undefined });
	},
};
