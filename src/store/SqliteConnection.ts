/**
 * The app's SQLite client: @effect/sql-sqlite-node's `SqliteClient.make`, the same code with the
 * same options, plus `SqliteDirect`, which runs a synchronous function on the connection itself
 * while holding the client's one permit (no other fiber's statement or transaction between its
 * statements). A statement through the Effect client costs ~45 µs of CPU before SQLite does
 * anything (compiling the template, the prepared-statement cache, the permit, a span), an empty
 * transaction ~90 µs: a report of 50 records took six statements and a transaction. The library
 * keeps its connection to itself, hence this copy.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as Client from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { createRequire } from "node:module"
import { Cache, Context, Duration, Effect, Layer, Scope } from "effect"
import { unsafeCoerce } from "effect/Function"

/** What is used here of a better-sqlite3 prepared statement. */
export interface SqliteStatement {
  readonly reader: boolean
  run(...params: ReadonlyArray<unknown>): {
    readonly changes: number
    readonly lastInsertRowid: number | bigint
  }
  all(...params: ReadonlyArray<unknown>): Array<unknown>
  get(...params: ReadonlyArray<unknown>): unknown
  raw(on: boolean): this
  safeIntegers(on: boolean): this
}

/** What is used here of a better-sqlite3 connection. */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement
  pragma(source: string): unknown
  transaction<A>(f: () => A): () => A
  close(): void
  serialize(): Uint8Array
  backup(destination: string): Promise<SqliteClient.BackupMetadata>
  loadExtension(path: string): void
}

/**
 * better-sqlite3 as the SQL client loads it: the package is its dependency, not this project's,
 * so it is resolved from the client's own place (the same module, the same native binding).
 */
const Sqlite = createRequire(createRequire(import.meta.url).resolve("@effect/sql-sqlite-node"))(
  "better-sqlite3"
) as new (filename: string, options: { readonly readonly: boolean }) => SqliteDatabase

/** The connection under the client's permit, for code that writes many rows in one synchronous go. */
export class SqliteDirect extends Context.Tag("SqliteDirect")<
  SqliteDirect,
  {
    /**
     * `f` run on the connection, alone on it: it must be synchronous, and open no transaction it
     * does not close (better-sqlite3's `db.transaction` does both).
     */
    readonly run: <A>(f: (db: SqliteDatabase) => A) => Effect.Effect<A, SqlError>
  }
>() {}

type Row = Record<string, unknown>

/**
 * The version of @effect/sql-sqlite-node whose `SqliteClient.make` `make` below copies: a test
 * fails when the installed one differs, so an upgrade compares the two first.
 */
export const COPIED_FROM_VERSION = "0.53.0"

const make = (options: SqliteClient.SqliteClientConfig) =>
  Effect.gen(function* () {
    const compiler = Statement.makeCompilerSqlite(options.transformQueryNames)
    const transformRows = options.transformResultNames
      ? Statement.defaultTransforms(options.transformResultNames).array
      : undefined
    const scope = yield* Effect.scope
    const db = new Sqlite(options.filename, { readonly: options.readonly ?? false })
    yield* Scope.addFinalizer(
      scope,
      Effect.sync(() => db.close())
    )
    if (options.disableWAL !== true) db.pragma("journal_mode = WAL")
    const prepareCache = yield* Cache.make({
      capacity: options.prepareCacheSize ?? 200,
      timeToLive: options.prepareCacheTTL ?? Duration.minutes(10),
      lookup: (sql: string) =>
        Effect.try({
          try: () => db.prepare(sql),
          catch: (cause) => new SqlError({ cause, message: "Failed to prepare statement " })
        })
    })
    const runStatement = (statement: SqliteStatement, params: ReadonlyArray<unknown>, raw: boolean) =>
      Effect.withFiberRuntime<ReadonlyArray<Row>, SqlError>((fiber) => {
        if (Context.get(fiber.currentContext, Client.SafeIntegers)) statement.safeIntegers(true)
        try {
          if (statement.reader) return Effect.succeed(statement.all(...params) as ReadonlyArray<Row>)
          const result = statement.run(...params)
          // the library hands the raw result (changes, last rowid) where rows would be
          return Effect.succeed(raw ? unsafeCoerce<typeof result, ReadonlyArray<Row>>(result) : [])
        } catch (cause) {
          return Effect.fail(new SqlError({ cause, message: "Failed to execute statement" }))
        }
      })
    const run = (sql: string, params: ReadonlyArray<unknown>, raw = false) =>
      Effect.flatMap(prepareCache.get(sql), (s) => runStatement(s, params, raw))
    const runValues = (sql: string, params: ReadonlyArray<unknown>) =>
      Effect.acquireUseRelease(
        prepareCache.get(sql),
        (statement) =>
          Effect.try({
            try: () => {
              if (statement.reader) {
                statement.raw(true)
                return statement.all(...params) as ReadonlyArray<ReadonlyArray<unknown>>
              }
              statement.run(...params)
              return []
            },
            catch: (cause) => new SqlError({ cause, message: "Failed to execute statement" })
          }),
        (statement) => Effect.sync(() => statement.reader && statement.raw(false))
      )
    const connection = {
      execute: (
        sql: string,
        params: ReadonlyArray<unknown>,
        transform?: (rows: ReadonlyArray<Row>) => ReadonlyArray<Row>
      ) => (transform ? Effect.map(run(sql, params), transform) : run(sql, params)),
      executeRaw: (sql: string, params: ReadonlyArray<unknown>) => run(sql, params, true),
      executeValues: runValues,
      executeUnprepared: (
        sql: string,
        params: ReadonlyArray<unknown> | undefined,
        transform?: (rows: ReadonlyArray<Row>) => ReadonlyArray<Row>
      ) => {
        const effect = runStatement(db.prepare(sql), params ?? [], false)
        return transform ? Effect.map(effect, transform) : effect
      },
      executeStream: () => Effect.dieMessage("executeStream not implemented"),
      export: Effect.try({
        try: () => db.serialize(),
        catch: (cause) => new SqlError({ cause, message: "Failed to export database" })
      }),
      backup: (destination: string) =>
        Effect.tryPromise({
          try: () => db.backup(destination),
          catch: (cause) => new SqlError({ cause, message: "Failed to backup database" })
        }),
      loadExtension: (path: string) =>
        Effect.tap(
          Effect.try({
            try: () => db.loadExtension(path),
            catch: (cause) => new SqlError({ cause, message: "Failed to load extension" })
          }),
          () => prepareCache.invalidateAll
        )
    }
    const semaphore = yield* Effect.makeSemaphore(1)
    const acquirer = semaphore.withPermits(1)(Effect.succeed(connection))
    const transactionAcquirer = Effect.uninterruptibleMask((restore) =>
      Effect.as(
        Effect.zipRight(
          restore(semaphore.take(1)),
          Effect.tap(Effect.scope, (s) => Scope.addFinalizer(s, semaphore.release(1)))
        ),
        connection
      )
    )
    // as the library assembles it: its SqliteClient declares `updateValues` never, which no client has
    const client = unsafeCoerce<object, SqliteClient.SqliteClient>(
      Object.assign(
        yield* Client.make({
          // the library's Connection, which this object is as the library's own is (its methods are
          // generic in the row type, which a prepared statement's rows are not)
          acquirer: unsafeCoerce<typeof acquirer, Client.SqlClient.MakeOptions["acquirer"]>(acquirer),
          compiler,
          transactionAcquirer: unsafeCoerce<
            typeof transactionAcquirer,
            Client.SqlClient.MakeOptions["acquirer"]
          >(transactionAcquirer),
          spanAttributes: [
            ...(options.spanAttributes ? Object.entries(options.spanAttributes) : []),
            ["db.system.name", "sqlite"]
          ],
          transformRows
        }),
        {
          [SqliteClient.TypeId]: SqliteClient.TypeId,
          config: options,
          export: Effect.flatMap(acquirer, (c) => c.export),
          backup: (destination: string) => Effect.flatMap(acquirer, (c) => c.backup(destination)),
          loadExtension: (path: string) => Effect.flatMap(acquirer, (c) => c.loadExtension(path))
        }
      )
    )
    const direct: SqliteDirect["Type"] = {
      run: (f) =>
        semaphore.withPermits(1)(
          Effect.try({
            try: () => f(db),
            catch: (cause) => new SqlError({ cause, message: "Failed to execute statement" })
          })
        )
    }
    return { client, direct }
  })

/** `SqliteClient.layer` with `SqliteDirect` beside it, on the same connection. */
export const sqliteLayer = (options: SqliteClient.SqliteClientConfig) =>
  Layer.scopedContext(
    Effect.map(make(options), ({ client, direct }) =>
      Context.make(SqliteClient.SqliteClient, client).pipe(
        Context.add(Client.SqlClient, client),
        Context.add(SqliteDirect, direct)
      )
    )
  ).pipe(Layer.provide(Reactivity.layer))
