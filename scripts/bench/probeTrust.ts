/**
 * The client's CPU a TLS probe handshake costs when the server's chain verifies (as a publicly
 * trusted server's does against the system roots) and when the probe trusts nothing
 * (`probeSecureContext`, src/net/TlsPeer.ts). A verified chain makes node read every certificate
 * of it into objects and check the name on every handshake. The world's servers chain to the
 * world's own CA, which the system roots do not hold, so the world bench cannot show the
 * difference: here a test CA stands in for a public one, trusted by the first context only.
 * The server runs in a child process, so `process.cpuUsage()` is the client's alone; the two
 * contexts alternate, `rounds` times.
 *   npx tsx scripts/bench/probeTrust.ts [handshakes=800] [rounds=4]
 */
import { fork } from "node:child_process"
import * as tls from "node:tls"
import { KeptPeer, probeSecureContext } from "../../src/net/TlsPeer.ts"
import { makePki } from "../../test/net/pki.ts"

const [handshakesText = "800", roundsText = "4"] = process.argv.slice(2)

if (process.argv[2] === "--serve") {
  const [, , , key, cert] = process.argv
  const server = tls.createServer({ key, cert }, (socket) => {
    socket.on("error", () => {})
    socket.end()
  })
  server.on("tlsClientError", () => {})
  server.listen(0, "127.0.0.1", () => process.send!((server.address() as { port: number }).port))
} else {
  const pki = makePki({ names: ["probe.example.net"] })
  const child = fork(import.meta.filename, ["--serve", pki.leafKey, pki.leafPem], {
    execArgv: ["--import", "tsx"]
  })
  const port = await new Promise<number>((resolve) => child.once("message", (m) => resolve(Number(m))))
  const offer = { minVersion: "TLSv1.2", maxVersion: "TLSv1.3", ciphers: "DEFAULT" } as const
  const contexts = {
    "chain verifies": tls.createSecureContext({ ...offer, ca: [pki.caPem] }),
    "trusts nothing": probeSecureContext(offer)
  }
  const one = (secureContext: tls.SecureContext) =>
    new Promise<boolean>((resolve) => {
      const kept = new KeptPeer()
      const socket = tls.connect({
        host: "127.0.0.1",
        port,
        servername: "probe.example.net",
        secureContext,
        rejectUnauthorized: false,
        checkServerIdentity: kept.checkServerIdentity
      })
      socket.once("secureConnect", () => {
        socket.destroy()
        resolve(socket.authorized)
      })
      socket.once("error", () => {
        socket.destroy()
        resolve(false)
      })
    })
  const n = Number(handshakesText)
  for (let round = 0; round < Number(roundsText); round++) {
    const line: Array<string> = []
    for (const [name, context] of Object.entries(contexts)) {
      const before = process.cpuUsage()
      let authorized = false
      // Four at once, as a scan's versions are asked beside each other.
      for (let i = 0; i < n; i += 4)
        authorized = (await Promise.all([0, 1, 2, 3].map(() => one(context))))[0]!
      const used = process.cpuUsage(before)
      line.push(`${name} (authorized ${authorized}): ${((used.user + used.system) / n).toFixed(0)} µs`)
    }
    console.log(`round ${round + 1}: ${line.join(", ")} of client CPU a handshake`)
  }
  child.kill()
  pki.cleanup()
}
