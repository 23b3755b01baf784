import { frameRecord, scanRecords } from '../../../src/embedded-mongo/storage/journal-record';

describe('journal records', () => {
  const records = [
    frameRecord([Buffer.from('first')]),
    frameRecord([Buffer.from('sec'), Buffer.from('ond')]),
    frameRecord([Buffer.from('third')]),
  ];
  const whole = Buffer.concat(records);

  test('whole records are read back in order', () => {
    const scan = scanRecords(whole);
    expect(scan.payloads.map(String)).toEqual(['first', 'second', 'third']);
    expect(scan.validLength).toBe(whole.length);
    expect(scan.damage).toBeUndefined();
  });

  test.each([
    ['a cut in the last record', whole.subarray(0, whole.length - 2)],
    ['a cut inside the last header', whole.subarray(0, records[0].length + records[1].length + 5)],
    [
      'garbage after the last record',
      Buffer.concat([
        whole.subarray(0, records[0].length + records[1].length),
        Buffer.from([9, 0, 0, 0, 1, 2, 3, 4, 5]),
      ]),
    ],
    [
      'a flipped byte in the last payload',
      Buffer.concat([records[0], records[1], Buffer.from(records[2]).fill(0x41, 8, 9)]),
    ],
  ])('%s stops the scan at the last whole record', (_label, bytes) => {
    const scan = scanRecords(bytes);
    expect(scan.payloads.map(String)).toEqual(['first', 'second']);
    expect(scan.validLength).toBe(records[0].length + records[1].length);
    expect(scan.damage).toBeDefined();
  });
});
