import type * as ClassTransformer from 'class-transformer';
import type * as ClassTransformerStorage from 'class-transformer/types/storage';
import type * as ClassValidator from 'class-validator';

/*
 * class-validator and class-transformer cost about 15 MB of resident memory together (validator.js
 * and libphonenumber come with them). They load when the first validating hook or decorator is
 * made, not with the package: an application without DTOs never pays for them.
 */
let validatorLibrary: typeof ClassValidator | undefined;
let transformerLibrary: typeof ClassTransformer | undefined;
let transformerStorage: typeof ClassTransformerStorage.defaultMetadataStorage | undefined;

export function classValidator(): typeof ClassValidator {
  return (validatorLibrary ??= require('class-validator') as typeof ClassValidator);
}

export function classTransformer(): typeof ClassTransformer {
  return (transformerLibrary ??= require('class-transformer') as typeof ClassTransformer);
}

/**
 * Where class-transformer keeps `@Type`, `@Transform`, `@Expose` and `@Exclude` (the module its docs point readers of
 * that metadata to).
 */
export function classTransformerStorage(): typeof ClassTransformerStorage.defaultMetadataStorage {
  return (transformerStorage ??= (require('class-transformer/cjs/storage') as typeof ClassTransformerStorage)
    .defaultMetadataStorage);
}
