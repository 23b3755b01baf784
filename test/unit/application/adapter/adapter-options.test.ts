import { allowsMulti, optionForCall, optionsForCall } from '../../../../src/application/adapter/adapter-options';

describe('allowsMulti', () => {
  it('always allows find, never get or update', () => {
    expect(allowsMulti('find', false)).toBe(true);
    expect(allowsMulti('get', true)).toBe(false);
    expect(allowsMulti('update', ['update'])).toBe(false);
  });

  it('true allows create, patch and remove; false and undefined none', () => {
    for (const method of ['create', 'patch', 'remove']) {
      expect(allowsMulti(method, true)).toBe(true);
      expect(allowsMulti(method, false)).toBe(false);
      expect(allowsMulti(method, undefined)).toBe(false);
    }
  });

  it('a list allows the listed methods only', () => {
    expect(allowsMulti('create', ['create', 'patch'])).toBe(true);
    expect(allowsMulti('patch', ['create', 'patch'])).toBe(true);
    expect(allowsMulti('remove', ['create', 'patch'])).toBe(false);
  });
});

describe('optionsForCall', () => {
  const options = { id: 'id', paginate: { default: 5 }, multi: false, filters: {}, operators: [], events: [] };

  it('returns the service options when params override nothing', () => {
    expect(optionsForCall(options, {})).toEqual(options);
  });

  it('params.paginate replaces paginate, false included', () => {
    expect(optionsForCall(options, { paginate: { default: 1 } }).paginate).toEqual({ default: 1 });
    expect(optionsForCall(options, { paginate: false }).paginate).toBe(false);
  });

  it('params.adapter goes on top of everything, paginate included', () => {
    const merged = optionsForCall(options, {
      paginate: false,
      adapter: { paginate: { default: 9 }, multi: ['create'] },
    });
    expect(merged).toMatchObject({ paginate: { default: 9 }, multi: ['create'], id: 'id' });
  });

  it('does not change the service options', () => {
    optionsForCall(options, { adapter: { multi: true } });
    expect(options.multi).toBe(false);
  });
});

describe('optionForCall', () => {
  const options = { id: 'id', paginate: { default: 5 }, multi: false, filters: {}, operators: [], events: [] };
  const calls = [
    {},
    { paginate: false as const },
    { paginate: { default: 1 } },
    { adapter: { multi: true } },
    { paginate: false as const, adapter: { paginate: { default: 9 }, multi: ['create'] } },
    { adapter: { paginate: undefined } },
    { adapter: null as unknown as undefined },
  ];

  it('gives each option exactly as optionsForCall does', () => {
    for (const params of calls) {
      const merged = optionsForCall(options, params);
      for (const name of ['id', 'paginate', 'multi', 'filters', 'operators', 'events'] as const) {
        expect(optionForCall(options, params, name)).toBe(merged[name]);
      }
    }
  });
});
