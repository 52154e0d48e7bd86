/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, a scan's spans reach an OTLP/HTTP receiver (a small
 * node:http server here, taking the exporter's JSON): the request's span, the scan's under it with
 * the critical path as attributes, every registered check's span under the scan's, and DNS, SMTP
 * and HTTPS spans under the checks. The spans still held are sent when the service stops.
 */
import { createServer, type Server } from "node:http"
import { afterAll, describe, expect, it } from "vitest"
import { registry } from "../../src/checks/index.ts"
import { freePort } from "../support/processes.ts"
import { type Service, serviceEnv, startService } from "./serviceProcess.ts"

interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly attributes: ReadonlyArray<{ key: string; value: Record<string, unknown> }>
}

let service: Service | undefined
let receiver: Server | undefined
afterAll(() => {
  service?.child.kill("SIGKILL")
  receiver?.close()
})

/** An OTLP/HTTP trace receiver keeping every span it is sent. */
const receive = async () => {
  const spans: Array<OtlpSpan> = []
  const port = await freePort()
  receiver = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      expect(req.url).toBe("/v1/traces")
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<OtlpSpan> }> }>
      }
      for (const r of body.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans)
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => receiver!.listen(port, "127.0.0.1", resolve))
  return { spans, endpoint: `http://127.0.0.1:${port}` }
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

describe("traces over OTLP/HTTP", () => {
  it("carry a scan with every check's span under it", { timeout: 180_000 }, async () => {
    const { spans, endpoint } = await receive()
    service = await startService(await serviceEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }))
    const res = await fetch(`${service.base}/api/scan`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "trace-test-1" },
      body: JSON.stringify({ domain: "perfect.com" })
    })
    expect(res.status).toBe(200)
    expect(res.headers.get("x-request-id")).toBe("trace-test-1")
    service.child.kill("SIGTERM")
    expect(await service.exited).toBe(0)

    const byId = new Map(spans.map((s) => [s.spanId, s]))
    const ancestors = (span: OtlpSpan): Array<OtlpSpan> => {
      const out: Array<OtlpSpan> = []
      for (let p = span.parentSpanId; p && byId.has(p); p = byId.get(p)!.parentSpanId) out.push(byId.get(p)!)
      return out
    }
    const scans = spans.filter((s) => s.name === "Scanner.scan")
    expect(scans).toHaveLength(1)
    const scan = scans[0]!
    expect(Number(attribute(scan, "scan.critical_path_ms"))).toBeGreaterThan(0)
    expect(Number(attribute(scan, "scan.checks"))).toBe(registry.length)
    const request = ancestors(scan).find((s) => s.name.startsWith("http.server"))
    expect(request).toBeDefined()
    expect(attribute(request!, "request.id")).toBe("trace-test-1")

    for (const check of registry) {
      const span = spans.find((s) => s.name === `Check.${check.id}` && s.traceId === scan.traceId)
      expect(span, check.id).toBeDefined()
      expect(ancestors(span!).map((s) => s.spanId)).toContain(scan.spanId)
    }
    for (const name of ["Dns.query", "Smtp.probe", "Web.get"]) {
      const child = spans.find((s) => s.name === name && s.traceId === scan.traceId)
      expect(child, name).toBeDefined()
      expect(ancestors(child!).some((s) => s.name.startsWith("Check."))).toBe(true)
    }
  })
})
