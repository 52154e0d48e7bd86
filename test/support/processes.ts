/** What the tests that start the service (or its runners) as child processes share. */
import { createServer } from "node:net"

/** A TCP port on loopback that nothing listens on now (the kernel's pick). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
