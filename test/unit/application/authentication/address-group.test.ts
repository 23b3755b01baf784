import { addressGroup } from '../../../../src/application/authentication/address-group';
import { clientAddressOf } from '../../../../src/application/authentication/client-address';

describe('addressGroup (the address a client is rate limited by)', () => {
  it('keeps IPv4 addresses whole', () => {
    expect(addressGroup('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('203.0.113.8')).toBe('203.0.113.8');
  });

  it('groups every IPv6 address of a /64 together, however it is written', () => {
    const group = '2001:db8:1:2::/64';
    for (const address of [
      '2001:db8:1:2::1',
      '2001:0DB8:0001:0002:ffff:ffff:ffff:ffff',
      '[2001:db8:1:2::9]',
      '2001:db8:1:2:3:4:5:6',
      '2001:db8:1:2::1.2.3.4',
    ]) {
      expect(addressGroup(address)).toBe(group);
    }
    expect(addressGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('1:2:3:4:5:6:7::')).toBe('1:2:3:4::/64');
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(addressGroup('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroup('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('keeps what is not an IP address as given (lower-cased), without throwing', () => {
    for (const text of ['bogus', '1:2:3', '1::2::3', '::ffff:300.1.1.1', '1:2:3:4:5:6:7:8:9', 'g::1'])
      expect(addressGroup(text)).toBe(text.toLowerCase());
  });

  it('is what clientAddressOf answers for params.ip', () => {
    expect(clientAddressOf({ ip: '2001:db8:1:2::77' })).toBe('2001:db8:1:2::/64');
    expect(clientAddressOf({ ip: '::ffff:127.0.0.1' })).toBe('127.0.0.1');
    expect(clientAddressOf({})).toBeUndefined();
    expect(clientAddressOf({ ip: '' })).toBeUndefined();
  });
});
