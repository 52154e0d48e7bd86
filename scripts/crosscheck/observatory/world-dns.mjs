/**
 * Preloaded (`node --import`) into the Observatory's process: its HTTP client resolves names with
 * the system's getaddrinfo, which does not know the test world. `dns.lookup` (what `net` calls for
 * every connection) asks the world's resolver (WORLD_RESOLVER) instead, A first, then AAAA.
 */
import dns from "node:dns"
import { isIP } from "node:net"

const resolver = new dns.Resolver()
resolver.setServers([process.env.WORLD_RESOLVER])
const systemLookup = dns.lookup

const resolve = (hostname, family) =>
  new Promise((done) =>
    (family === 4 ? resolver.resolve4 : resolver.resolve6).call(resolver, hostname, (error, addresses) =>
      done(error ? [] : addresses.map((address) => ({ address, family })))
    )
  )

dns.lookup = (hostname, options, callback) => {
  if (typeof options === "function") [callback, options] = [options, {}]
  if (typeof options === "number") options = { family: options }
  if (isIP(hostname) !== 0) return systemLookup(hostname, options, callback)
  const families = options.family === 6 ? [6] : options.family === 4 ? [4] : [4, 6]
  Promise.all(families.map((family) => resolve(hostname, family))).then((lists) => {
    const all = lists.flat()
    if (all.length === 0) {
      const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
        code: "ENOTFOUND",
        hostname
      })
      return callback(error)
    }
    if (options.all) callback(null, all)
    else callback(null, all[0].address, all[0].family)
  })
}
