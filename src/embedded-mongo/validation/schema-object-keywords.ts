import type { Document } from 'bson';
import { CommandError } from '../base/command-error';
import { isPlainObject, nonNegativeInteger, type SchemaCheck } from './schema-types';

/** Compiles a nested schema (passed in, so this module does not import the compiler back). */
type Compile = (schema: unknown) => SchemaCheck;

/** required, min/maxProperties, properties, patternProperties, additionalProperties and dependencies. */
export function objectChecks(schema: Document, compile: Compile): SchemaCheck[] {
  const checks: SchemaCheck[] = [];
  if (schema.required !== undefined) {
    const required = schema.required;
    if (!Array.isArray(required))
      throw new CommandError('TypeMismatch', "$jsonSchema keyword 'required' must be an array");
    if (required.length === 0)
      throw new CommandError('FailedToParse', "$jsonSchema keyword 'required' cannot be an empty array");
    if (!required.every((name) => typeof name === 'string'))
      throw new CommandError('TypeMismatch', "$jsonSchema keyword 'required' must contain only strings");
    checks.push((value) => {
      if (!isPlainObject(value)) return [];
      const missingProperties = (required as string[]).filter((name) => !Object.hasOwn(value, name));
      return missingProperties.length > 0
        ? [{ operatorName: 'required', specifiedAs: { required }, missingProperties }]
        : [];
    });
  }
  for (const [keyword, atLeast] of [
    ['minProperties', true],
    ['maxProperties', false],
  ] as const) {
    if (schema[keyword] === undefined) continue;
    const count = nonNegativeInteger(schema, keyword);
    checks.push((value) => {
      if (!isPlainObject(value)) return [];
      const numberOfProperties = Object.keys(value).length;
      return (atLeast ? numberOfProperties < count : numberOfProperties > count)
        ? [
            {
              operatorName: keyword,
              specifiedAs: { [keyword]: schema[keyword] },
              reason: 'specified number of properties was not satisfied',
              numberOfProperties,
            },
          ]
        : [];
    });
  }
  const properties = schemaMap(schema, 'properties', compile);
  if (properties.size > 0) {
    checks.push((value) => {
      if (!isPlainObject(value)) return [];
      const propertiesNotSatisfied: Document[] = [];
      for (const [propertyName, { check, description }] of properties) {
        if (!Object.hasOwn(value, propertyName)) continue;
        const details = check(value[propertyName]);
        if (details.length > 0)
          propertiesNotSatisfied.push({ propertyName, ...(description !== undefined ? { description } : {}), details });
      }
      return propertiesNotSatisfied.length > 0 ? [{ operatorName: 'properties', propertiesNotSatisfied }] : [];
    });
  }
  const patterns = [...schemaMap(schema, 'patternProperties', compile)].map(([pattern, entry]) => ({
    regex: new RegExp(pattern, 'u'),
    pattern,
    ...entry,
  }));
  if (patterns.length > 0) {
    checks.push((value) => {
      if (!isPlainObject(value)) return [];
      const propertiesNotSatisfied: Document[] = [];
      for (const [propertyName, property] of Object.entries(value)) {
        for (const { regex, pattern, check } of patterns) {
          if (!regex.test(propertyName)) continue;
          const details = check(property);
          if (details.length > 0) propertiesNotSatisfied.push({ propertyName, regexMatched: pattern, details });
        }
      }
      return propertiesNotSatisfied.length > 0 ? [{ operatorName: 'patternProperties', propertiesNotSatisfied }] : [];
    });
  }
  if (schema.additionalProperties !== undefined)
    checks.push(
      additionalPropertiesCheck(
        schema,
        properties,
        patterns.map((entry) => entry.regex),
        compile,
      ),
    );
  if (schema.dependencies !== undefined) checks.push(dependenciesCheck(schema.dependencies, compile));
  return checks;
}

function additionalPropertiesCheck(
  schema: Document,
  properties: ReadonlyMap<string, unknown>,
  patterns: RegExp[],
  compile: Compile,
): SchemaCheck {
  const additional = schema.additionalProperties;
  if (typeof additional !== 'boolean' && !isPlainObject(additional)) {
    throw new CommandError(
      'TypeMismatch',
      "$jsonSchema keyword 'additionalProperties' must be either an object or a boolean",
    );
  }
  const check = isPlainObject(additional) ? compile(additional) : undefined;
  return (value) => {
    if (!isPlainObject(value) || additional === true) return [];
    const extra = Object.keys(value).filter(
      (name) => !properties.has(name) && !patterns.some((regex) => regex.test(name)),
    );
    if (!check)
      return extra.length > 0
        ? [
            {
              operatorName: 'additionalProperties',
              specifiedAs: { additionalProperties: false },
              additionalProperties: extra,
            },
          ]
        : [];
    for (const name of extra) {
      const details = check(value[name]);
      if (details.length > 0)
        return [
          {
            operatorName: 'additionalProperties',
            reason: 'at least one additional property did not match the subschema',
            failingProperty: name,
            details,
          },
        ];
    }
    return [];
  };
}

function dependenciesCheck(dependencies: unknown, compile: Compile): SchemaCheck {
  if (!isPlainObject(dependencies))
    throw new CommandError('TypeMismatch', "$jsonSchema keyword 'dependencies' must be an object");
  const rules = Object.entries(dependencies).map(([conditionalProperty, dependency]) => {
    if (isPlainObject(dependency)) return { conditionalProperty, check: compile(dependency) };
    if (
      !Array.isArray(dependency) ||
      dependency.length === 0 ||
      !dependency.every((name) => typeof name === 'string')
    ) {
      throw new CommandError(
        'FailedToParse',
        `property '${conditionalProperty}' in $jsonSchema keyword 'dependencies' must be either an object or a ` +
          `non-empty array of strings`,
      );
    }
    return { conditionalProperty, required: dependency as string[] };
  });
  return (value) => {
    if (!isPlainObject(value)) return [];
    const failingDependencies: Document[] = [];
    for (const rule of rules) {
      if (!Object.hasOwn(value, rule.conditionalProperty)) continue;
      if (rule.check) {
        const details = rule.check(value);
        if (details.length > 0) failingDependencies.push({ conditionalProperty: rule.conditionalProperty, details });
      } else {
        const missingProperties = rule.required!.filter((name) => !Object.hasOwn(value, name));
        if (missingProperties.length > 0)
          failingDependencies.push({ conditionalProperty: rule.conditionalProperty, missingProperties });
      }
    }
    return failingDependencies.length > 0 ? [{ operatorName: 'dependencies', failingDependencies }] : [];
  };
}

/** `properties` / `patternProperties`: each entry a compiled subschema with its description. */
function schemaMap(
  schema: Document,
  keyword: string,
  compile: Compile,
): Map<string, { check: SchemaCheck; description?: unknown }> {
  const compiled = new Map<string, { check: SchemaCheck; description?: unknown }>();
  const raw = schema[keyword];
  if (raw === undefined) return compiled;
  if (!isPlainObject(raw)) throw new CommandError('TypeMismatch', `$jsonSchema keyword '${keyword}' must be an object`);
  for (const [name, subschema] of Object.entries(raw)) {
    if (!isPlainObject(subschema))
      throw new CommandError('TypeMismatch', `Nested schema for $jsonSchema property '${name}' must be an object`);
    compiled.set(name, { check: compile(subschema), description: subschema.description });
  }
  return compiled;
}
