/** The entity types extraction produces; callers may store others (the schema allows any). */
export const ENTITY_TYPES = ['person', 'project', 'tool', 'place', 'organisation', 'concept', 'file', 'url', 'handle', 'tag', 'identifier', 'term'] as const;
/** One of {@link ENTITY_TYPES}; stored entities may carry other (caller-given) types too. */
export type EntityType = (typeof ENTITY_TYPES)[number];
