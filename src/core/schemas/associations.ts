/**
 * Associations: associate_memories and unlinking.
 */
import { z } from 'zod';
import { AssociationFieldsShape, ReplayedSchema, RequestIdSchema } from './memory';
import { AssociationTypeSchema, AuthorableAssociationTypeSchema, LIMITS, MemoryRefSchema, UnitSchema, wellFormedInput } from './primitives';

// ---------------------------------------------------------------- associate

export const AssociateItemShape = {
	memory1_id: MemoryRefSchema.describe('Source memory id'),
	memory2_id: MemoryRefSchema.describe('Target memory id'),
	type: AuthorableAssociationTypeSchema.optional().describe('Relationship type (RELATES_TO)'),
	strength: UnitSchema.optional().describe('0.9+ direct causation, 0.7–0.9 strong, 0.5–0.7 moderate (0.5)'),
	...AssociationFieldsShape,
};
export const AssociateItemSchema = z.object(AssociateItemShape);
export type AssociateItem = z.infer<typeof AssociateItemSchema>;

/** associate_memories input: one pair at top level, or `associations[]` (≤ 500), never both. */
export const AssociateInputSchema = wellFormedInput(
	z
		.object({
			...Object.fromEntries(Object.entries(AssociateItemShape).map(([k, v]) => [k, v.optional()])),
			associations: z
				.array(AssociateItemSchema)
				.min(1)
				.max(LIMITS.batch)
				.optional()
				.describe(`Batch mode: up to ${LIMITS.batch}; each item fails or succeeds on its own`),
			request_id: RequestIdSchema.optional(),
		} as { [K in keyof typeof AssociateItemShape]: z.ZodOptional<(typeof AssociateItemShape)[K]> } & {
			associations: z.ZodOptional<z.ZodArray<typeof AssociateItemSchema>>;
			request_id: z.ZodOptional<typeof RequestIdSchema>;
		})
		.superRefine((v, ctx) => {
			const single = v.memory1_id !== undefined || v.memory2_id !== undefined;
			if (v.associations !== undefined && single)
				ctx.addIssue({
					code: 'custom',
					path: ['associations'],
					message: 'cannot be combined with top-level memory1_id/memory2_id',
				});
			if (v.associations === undefined) {
				if (v.memory1_id === undefined) ctx.addIssue({ code: 'custom', path: ['memory1_id'], message: 'is required (or give associations[])' });
				if (v.memory2_id === undefined) ctx.addIssue({ code: 'custom', path: ['memory2_id'], message: 'is required' });
			}
		}),
);
export type AssociateInput = z.infer<typeof AssociateInputSchema>;

export const AssociateOutputSchema = z.object({
	success: z.boolean().describe('True when every requested association was created or updated'),
	message: z.string(),
	created_count: z.number().int(),
	updated_count: z.number().int(),
	failed_count: z.number().int(),
	succeeded: z.array(
		z.object({
			index: z.number().int(),
			memory1_id: z.string(),
			memory2_id: z.string(),
			type: AuthorableAssociationTypeSchema,
			strength: z.number(),
			status: z.enum(['created', 'updated']),
		}),
	),
	failed: z.array(
		z.object({
			index: z.number().int(),
			memory1_id: z.unknown(),
			memory2_id: z.unknown(),
			code: z.string(),
			error: z.string(),
		}),
	),
	replayed: ReplayedSchema,
});
export type AssociateOutput = z.infer<typeof AssociateOutputSchema>;

/** unlink_memories input: the links from memory1 to memory2 to remove (every type when none is given). */
export const UnlinkInputSchema = z.object({
	memory1_id: MemoryRefSchema.describe('Source memory id (the link leaves it)'),
	memory2_id: MemoryRefSchema.describe('Target memory id'),
	type: AssociationTypeSchema.optional().describe('Only this link type (default: every link from memory1 to memory2)'),
	request_id: RequestIdSchema.optional(),
});
export type UnlinkInput = z.infer<typeof UnlinkInputSchema>;

export const UnlinkOutputSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	removed_count: z.number().int(),
	removed: z.array(z.object({ memory1_id: z.string(), memory2_id: z.string(), type: AssociationTypeSchema, strength: z.number() })),
	replayed: ReplayedSchema,
});
export type UnlinkOutput = z.infer<typeof UnlinkOutputSchema>;
