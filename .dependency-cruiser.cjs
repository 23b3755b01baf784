// The dependency rule of DESIGN.md section 2: dependencies point inwards only.
// Paths match "src/<layer>/" anywhere so the rule's own test can cruise a fixture tree.
const layer = (name) => `(^|/)src/${name}/`;
const browserSafe = [
  'domain',
  'ports',
  'application',
  'adapters/rest-client',
  'adapters/socketio-client',
  'examples/[^/]+/browser',
]
  .map(layer)
  .join('|');

module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'domain imports nothing of ours outside domain',
      severity: 'error',
      from: { path: layer('domain') },
      to: { path: '(^|/)src/', pathNot: layer('domain') },
    },
    {
      name: 'ports-import-domain-only',
      severity: 'error',
      from: { path: layer('ports') },
      to: { path: '(^|/)src/', pathNot: `${layer('domain')}|${layer('ports')}` },
    },
    {
      name: 'application-imports-inwards',
      severity: 'error',
      from: { path: layer('application') },
      to: { path: '(^|/)src/', pathNot: `${layer('domain')}|${layer('ports')}|${layer('application')}` },
    },
    {
      name: 'adapters-never-import-each-other',
      severity: 'error',
      from: { path: '(^|/)src/adapters/([^/]+)/' },
      to: { path: '(^|/)src/adapters/([^/]+)/', pathNot: '(^|/)src/adapters/$2/' },
    },
    {
      name: 'adapters-import-inwards',
      severity: 'error',
      from: { path: layer('adapters') },
      to: { path: `${layer('composition')}|(^|/)src/composition-root|(^|/)src/main|${layer('embedded-mongo')}` },
    },
    {
      name: 'embedded-mongo-is-self-contained',
      severity: 'error',
      from: { path: layer('embedded-mongo') },
      to: { path: '(^|/)src/', pathNot: layer('embedded-mongo') },
    },
    {
      name: 'embedded-mongo-base-imports-nothing-of-ours',
      comment:
        'the base (command error, server identity, logger) is what every other part of the embedded server builds on',
      severity: 'error',
      from: { path: `${layer('embedded-mongo')}base/` },
      to: { path: '(^|/)src/', pathNot: `${layer('embedded-mongo')}base/` },
    },
    {
      name: 'embedded-mongo-engine-below-commands',
      comment:
        'query, update, storage, indexes, geo, transactions, validation, change-streams and wire are the engine; ' +
        'commands and the server use it, never the other way',
      severity: 'error',
      from: {
        path:
          `${layer('embedded-mongo')}` +
          `(base|query|update|storage|indexes|geo|transactions|validation|wire|change-streams)/`,
      },
      to: {
        path: layer('embedded-mongo'),
        pathNot:
          `${layer('embedded-mongo')}` +
          `(base|query|update|storage|indexes|geo|transactions|validation|wire|change-streams)/`,
      },
    },
    {
      name: 'embedded-mongo-used-by-composition-only',
      severity: 'error',
      from: {
        path: '(^|/)src/',
        pathNot: `${layer('embedded-mongo')}|${layer('composition')}|(^|/)src/(composition-root|main|index)\\.ts$`,
      },
      to: { path: layer('embedded-mongo') },
    },
    {
      name: 'examples-import-ports-domain-and-client',
      comment: 'an example (the demo chat page) uses the types and the browser client, not the layers behind them',
      severity: 'error',
      from: { path: layer('examples') },
      to: {
        path: '(^|/)src/',
        pathNot: `${layer('examples')}|${layer('ports')}|${layer('domain')}|(^|/)src/client\\.ts$`,
      },
    },
    {
      name: 'examples-mounted-by-composition-only',
      comment: 'the composition mounts an example; adapters and the package entry points never import one',
      severity: 'error',
      from: {
        path: '(^|/)src/',
        pathNot: `${layer('examples')}|${layer('composition')}|(^|/)src/composition-root\\.ts$`,
      },
      to: { path: layer('examples') },
    },
    {
      name: 'inversify-only-in-composition',
      severity: 'error',
      from: { path: '(^|/)src/', pathNot: `${layer('composition')}|(^|/)src/composition-root` },
      to: { path: '(^|/)node_modules/inversify/' },
    },
    {
      name: 'browser-safe-layers-use-no-node-builtins',
      severity: 'error',
      from: { path: browserSafe },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '(^|/)dist/' },
  },
};
