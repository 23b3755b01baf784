/** A record id as services see it. Adapters convert to native types (e.g. ObjectId) themselves. */
export type Id = string | number;

/** `null` addresses every record matching `params.query` (multi calls). */
export type NullableId = Id | null;
