/**
 * The checks served alone are declared in their folders (kernel/Served.ts) and become endpoints of
 * their groups (src/api/ServedChecks.ts): each is in its group under its name and path, answers its
 * check's result Schema, costs what it declares, and sits at its rank among the served ones. A name
 * declared twice would silently replace an endpoint, so names and paths are unique.
 */
import { HttpApi } from "@effect/platform"
import { describe, expect, it } from "vitest"
import { Api } from "../../src/Api.ts"
import { costingOf } from "../../src/api/Cost.ts"
import { examples } from "../../src/api/Examples.ts"
import { servedIn } from "../../src/api/ServedChecks.ts"
import { registry } from "../../src/checks/index.ts"
import { ServedGroups } from "../../src/kernel/Served.ts"

/** Every endpoint of the contract: group, name, path without /api, success schema, cost. */
const endpoints = (() => {
  const all: Array<{ group: string; name: string; path: string; success: unknown; cost: unknown }> = []
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint, mergedAnnotations }) => {
      all.push({
        group: group.identifier,
        name: endpoint.name,
        path: endpoint.path.replace(/^\/api/, ""),
        success: endpoint.successSchema,
        cost: costingOf(mergedAnnotations)
      })
    }
  })
  return all
})()

const served = ServedGroups.flatMap((group) => servedIn(group))

describe("checks served alone", () => {
  it("are the checks of the registry that declare it", () => {
    expect(served.map((c) => c.id).sort()).toEqual(
      registry
        .filter((c) => "served" in c && c.served !== undefined)
        .map((c) => c.id)
        .sort()
    )
    expect(served.length).toBeGreaterThan(0)
  })

  it("each is an endpoint of its group: its path, its result Schema, its cost and its example", () => {
    for (const check of served) {
      const found = endpoints.filter((e) => e.group === check.served.group && e.name === check.served.name)
      expect(found, check.id).toHaveLength(1)
      expect(found[0]!.path, check.id).toBe(check.served.path)
      expect(found[0]!.success, check.id).toBe(check.result)
      expect(found[0]!.cost, check.id).toBe(check.served.cost)
      expect(examples[`${check.served.group}.${check.served.name}`]?.request, check.id).toBe(
        check.served.example
      )
    }
  })

  it("no two endpoints share a name in a group, or a method and path", () => {
    const names = endpoints.map((e) => `${e.group}.${e.name}`)
    expect(new Set(names).size).toBe(names.length)
    const ranks = served.map((c) => `${c.served.group} ${c.served.rank}`)
    expect(new Set(ranks).size).toBe(ranks.length)
    const paths = served.map((c) => c.served.path)
    expect(new Set(paths).size).toBe(paths.length)
  })

  it("sit in their group in rank order", () => {
    for (const group of ServedGroups) {
      const order = endpoints.filter((e) => e.group === group).map((e) => e.name)
      const byRank = [...servedIn(group)].sort((a, b) => a.served.rank - b.served.rank)
      const positions = byRank.map((c) => order.indexOf(c.served.name))
      expect(positions, group).toEqual([...positions].sort((a, b) => a - b))
    }
  })
})
