/** trending_labels: tags in use lately, decayed by days since last seen. */
import { TrendingInputSchema, TrendingOutputSchema } from '../../core/schemas';
import { renderTrending } from '../render';
import { defineTool, READ_ONLY } from '../tool-definition';

export const trendingLabels = defineTool({
	name: 'trending_labels',
	config: {
		title: 'Trending labels',
		description: `The labels (tags) used lately, ranked by count × 0.9^(days since last seen), over memories of the last \`days\` (30); at most \`limit\` (10).

Use it to see what the user has been working on, or to reuse existing tags before storing. Do not use it for all-time counts (memory_stats) or to find the memories behind a label (recall_memory with tags).

Example: trending_labels({ days: 7, limit: 5 })`,
		inputSchema: TrendingInputSchema,
		outputSchema: TrendingOutputSchema,
		annotations: READ_ONLY,
	},
	run: (input, engine) => engine.trendingLabels(input),
	render: renderTrending,
});
