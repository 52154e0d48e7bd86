/**
 * `Host` values a client may send that are valid as a host but name someone else: a name and port,
 * IPv4 and bracketed IPv6 literals, a name with `_`, a trailing dot, upper case, a punycode name.
 */
export const FORGED_HOSTS: ReadonlyArray<string> = [
  "evil.example:31337",
  "evil.example",
  "EVIL.example",
  "evil.example.",
  "203.0.113.9",
  "203.0.113.9:8080",
  "[2001:db8::1]",
  "[2001:db8::1]:8443",
  "evil_host.example",
  "evil_host.example:80",
  "xn--80ak6aa92e.com",
  "a.b.c.d.e.evil.example",
  "localhost:1",
  "[::1]:1"
]
