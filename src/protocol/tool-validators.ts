import type { ErrorObject } from 'ajv';

/** A compiled JSON Schema check, as ajv makes it: false leaves the problems in `errors`. */
export type SchemaCheck = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Checks compiled ahead of time, keyed by JSON.stringify of the schema. Empty in the sources (the
 * schemas are then compiled by ajv at first use); the bundles get the built-in tools' checks as
 * ajv's standalone code (scripts/bundle.mjs), so a run neither loads ajv nor compiles its
 * meta-schema. A schema that changed after the build simply misses here and is compiled.
 */
export const precompiledChecks: ReadonlyMap<string, SchemaCheck> = new Map();
