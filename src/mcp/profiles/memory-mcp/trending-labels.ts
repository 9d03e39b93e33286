/** trending_labels: labels used lately, ranked with a daily decay. */
import { z } from 'zod';
import { READ_ONLY } from '../../annotations';
import { json, pyInt } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';

export const trendingLabels = defineTool({
	name: 'trending_labels',
	config: {
		title: 'Get trending labels',
		description: `Labels trending now: used within the last \`days\` (30), ranked by use with a decay of 0.9 per day since last seen, at most \`limit\` (10). Returns {trending_labels: [{label, count, top_token}], time_window_days}.

Use it to see current topics or reuse labels. Do not use it for all-time counts (memory_stats).

Example: trending_labels(days=7, limit=5)`,
		inputSchema: z.object({
			days: pyInt(z.number().int().min(1).max(3650)).optional().describe('Time window in days (default 30)'),
			limit: pyInt(z.number().int().min(1).max(100)).optional().describe('Maximum labels (default 10)'),
		}),
		outputSchema: z.object({
			trending_labels: z.array(z.object({ label: z.string(), count: z.number().int(), top_token: z.string() })),
			time_window_days: z.number().int(),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const days = input.days ?? 30;
		const out = await engine.trendingLabels({ days, limit: input.limit ?? 10 });
		const token = (l: string) =>
			l
				.toLowerCase()
				.split(/[^\p{L}\p{N}]+/u)
				.find(Boolean) ?? l.toLowerCase();
		return {
			trending_labels: out.labels.map((l) => ({
				label: l.label,
				count: l.count,
				top_token: token(l.label),
			})),
			time_window_days: days,
		};
	},
	render: json,
});
