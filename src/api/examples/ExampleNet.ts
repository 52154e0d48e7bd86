/**
 * The example domain as the net services would see it: the in-memory resolver over its zone, and
 * its web site served from memory (a home page and an about page). Operations that read through
 * the services (the fix proposals, the CSP crawler) run their own code over these, synchronously,
 * since every answer is already at hand.
 */
import { ConfigProvider, Effect, Layer } from "effect"
import { AppConfig } from "../../Config.ts"
import { Resolver } from "../../net/Resolver.ts"
import type { FakeZone } from "../../net/ResolverFake.ts"
import { Smtp } from "../../net/Smtp.ts"
import { Web } from "../../net/Web.ts"
import { webError } from "../../net/WebTypes.ts"
import type { ScanContext } from "../../scan/FactsLive.ts"
import { DOMAIN, runAtNow, SITE_CSP, zone } from "../../kernel/examples/ExampleZone.ts"

const SITE = `https://www.${DOMAIN}`

const page = (title: string, links: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title>` +
  `<link rel="stylesheet" href="/assets/site.css">` +
  `<script src="https://cdn.example.net/analytics.js" defer></script></head>` +
  `<body><img src="/assets/logo.svg" alt="Example"><nav>${links}</nav>` +
  `<iframe src="https://video.example.org/embed/42" title="Video"></iframe></body></html>`

/** The pages of www.example.com, by URL. */
const PAGES: Readonly<Record<string, string>> = {
  [`${SITE}/`]: page("Example", `<a href="/about">About</a>`),
  [`${SITE}/about`]: page("About Example", `<a href="/">Home</a>`)
}

const webLayer = Web.Test((url) => {
  const html = PAGES[url]
  if (html !== undefined)
    return {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": SITE_CSP
      },
      body: new TextEncoder().encode(html)
    }
  if (url.endsWith(".css")) return { status: 200, headers: { "content-type": "text/css" } }
  if (url === `${SITE}/robots.txt`) return { status: 404 }
  return webError(url, "connect", "not part of the example site")
})

/** The net services over the example domain (its zone changed by `overrides`). */
const exampleNet = (overrides: FakeZone) =>
  Layer.mergeAll(Resolver.Test({ ...zone(), ...overrides }), webLayer, Smtp.Test({})).pipe(
    Layer.provideMerge(AppConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map())))
  )

/** Runs `effect` over the example domain's services; they answer at once, so it runs synchronously. */
export const overExample = <A, E>(effect: Effect.Effect<A, E, ScanContext>, overrides: FakeZone = {}): A =>
  runAtNow(Effect.orDie(Effect.provide(effect, exampleNet(overrides))))
