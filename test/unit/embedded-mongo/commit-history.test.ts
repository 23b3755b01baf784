import { Catalog } from '../../../src/embedded-mongo/storage/catalog';
import { MemoryStorageEngine } from '../../../src/embedded-mongo/storage/memory-storage-engine';
import { CommitHistory } from '../../../src/embedded-mongo/transactions/commit-history';
import { namespaceKey } from '../../../src/embedded-mongo/transactions/document-key';

describe('commit history', () => {
  const setup = () => {
    const catalog = new Catalog(new MemoryStorageEngine());
    const history = new CommitHistory();
    catalog.onChange((event) => history.observe(event));
    const store = catalog.ensureCollection('db', 'c').store;
    store.insert({ _id: 1, v: 'a' });
    store.insert({ _id: 2, v: 'b' });
    return { store, history, namespace: namespaceKey('db', 'c') };
  };

  test('rebuilds the documents as of a snapshot after replaces, deletes and inserts', () => {
    const { store, history, namespace } = setup();
    const snapshot = history.open();
    store.replace(store.getById(1)!, { _id: 1, v: 'changed' });
    store.delete(store.getById(2)!);
    store.insert({ _id: 3, v: 'new' });
    expect(history.documentsAt(namespace, store, snapshot)).toEqual([
      { _id: 1, v: 'a' },
      { _id: 2, v: 'b' },
    ]);
    expect(history.documentChangedSince(namespace, 1, snapshot)).toBe(true);
    expect(history.documentChangedSince(namespace, 4, snapshot)).toBe(false);
    const later = history.open();
    expect(history.documentsAt(namespace, store, later)).toEqual([
      { _id: 1, v: 'changed' },
      { _id: 3, v: 'new' },
    ]);
  });

  test('keeps nothing once no snapshot is open', () => {
    const { store, history, namespace } = setup();
    const snapshot = history.open();
    store.replace(store.getById(1)!, { _id: 1, v: 'changed' });
    history.close(snapshot);
    const next = history.open();
    expect(history.documentChangedSince(namespace, 1, 0)).toBe(false);
    expect(history.documentsAt(namespace, store, next)).toEqual([
      { _id: 1, v: 'changed' },
      { _id: 2, v: 'b' },
    ]);
  });
});
