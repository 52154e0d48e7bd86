/**
 * A record's encoding for the batch's output, as `Schema.encodeSync` gives it, without checking
 * again what the scan's own code built and typed. Encoding the whole record through its Schema
 * walks every value of a ~50 KB result, checks every refinement and every union member, and was
 * ~4 % of a full scan's CPU (docs/bench.md, the batch); most of the record's Schema transforms
 * nothing, so its encoding is a copy of the value with the Schema's keys in the Schema's order.
 *
 * `encoderOf(schema)` compiles the Schema's AST once: where a part transforms nothing (structs,
 * arrays, records of strings, literals, primitives, refinements of them, a member or null or
 * undefined), its encoding is built here, keys in the Schema's order and keys it does not declare
 * left out, as Effect's own encoder does; every other part (a transformation, a declaration, a
 * union of several shapes, a tuple) is encoded by Effect's encoder, so it is the same by
 * construction. What is not checked is a refinement (an integer that is not one): the value is
 * written as it is instead of failing the record.
 */
import { ParseResult, Schema, SchemaAST as AST } from "effect"

/** An encoding of a part; `undefined` where the part's encoded value is the value itself. */
type Encoder = ((value: unknown) => unknown) | undefined

const hasOwn = (value: object, key: PropertyKey) => Object.prototype.hasOwnProperty.call(value, key)

/** Parts whose encoded value is the value itself (Effect's encoder checks them, and copies nothing). */
const isPlain = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "Literal":
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "UndefinedKeyword":
    case "VoidKeyword":
    case "UnknownKeyword":
    case "AnyKeyword":
    case "TemplateLiteral":
    case "Enums":
    case "UniqueSymbol":
      return true
    case "Refinement":
      return isPlain(ast.from)
    case "Union":
      return ast.types.every(isPlain)
    default:
      return false
  }
}

/** Effect's own encoder of the part at `ast`, for what this module does not build itself. */
const effects = (ast: AST.AST): Encoder => {
  const encode = ParseResult.encodeSync(Schema.make(ast))
  return (value) => encode(value)
}

const compile = (ast: AST.AST, seen: Map<AST.AST, Encoder>): Encoder => {
  if (seen.has(ast)) return seen.get(ast)
  const encoder = build(ast, seen)
  seen.set(ast, encoder)
  return encoder
}

const build = (ast: AST.AST, seen: Map<AST.AST, Encoder>): Encoder => {
  if (isPlain(ast)) return undefined
  switch (ast._tag) {
    case "Refinement":
      // Effect checks the refinement, then encodes what it refines.
      return compile(ast.from, seen)
    case "Suspend": {
      // A recursive part: compiled when first used, once.
      let inner: ((value: unknown) => unknown) | undefined
      return (value) => {
        inner ??= compile(ast.f(), seen) ?? ((v: unknown) => v)
        return inner(value)
      }
    }
    case "Union": {
      // `X | null`, `X | undefined` (an optional's type): the one shape, or the value as it is.
      const shapes = ast.types.filter((t) => !isPlain(t))
      if (shapes.length !== 1 || !ast.types.every((t) => t === shapes[0] || isNullish(t))) return effects(ast)
      const shape = compile(shapes[0]!, seen)
      if (shape === undefined) return undefined
      return (value) => (value === null || value === undefined ? value : shape(value))
    }
    case "TupleType": {
      if (ast.elements.length > 0 || ast.rest.length !== 1) return effects(ast)
      const item = compile(ast.rest[0]!.type, seen)
      // Effect returns a copy; the same items in a new array write the same JSON.
      if (item === undefined) return undefined
      return (value) => (value as ReadonlyArray<unknown>).map((v) => item(v))
    }
    case "TypeLiteral": {
      if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) return undefined
      if (ast.indexSignatures.some((s) => s.parameter._tag !== "StringKeyword")) return effects(ast)
      const properties = ast.propertySignatures.map((p) => ({
        name: p.name,
        optional: p.isOptional,
        encode: compile(p.type, seen)
      }))
      const declared = new Set<PropertyKey>(properties.map((p) => p.name))
      const indexed = ast.indexSignatures.map((s) => compile(s.type, seen))
      return (value) => {
        const input = value as Record<PropertyKey, unknown>
        const output: Record<PropertyKey, unknown> = {}
        // The declared keys first, in the Schema's order; an optional one absent stays absent.
        for (const { name, optional, encode } of properties) {
          if (optional && !hasOwn(input, name)) continue
          const v = input[name]
          output[name] = encode === undefined ? v : encode(v)
        }
        // Then a record's keys, in the value's order, each undeclared one once.
        for (const encode of indexed)
          for (const key of Object.keys(input))
            if (!declared.has(key)) output[key] = encode === undefined ? input[key] : encode(input[key])
        return output
      }
    }
    default:
      return effects(ast)
  }
}

const isNullish = (ast: AST.AST) =>
  (ast._tag === "Literal" && ast.literal === null) ||
  ast._tag === "UndefinedKeyword" ||
  ast._tag === "VoidKeyword"

/** The encoding of `schema`'s values, as `Schema.encodeSync(schema)` writes them (above). */
export const encoderOf = <A, I>(schema: Schema.Schema<A, I>): ((value: A) => I) => {
  const encode = compile(schema.ast, new Map())
  // An Encoder's output is the Schema's encoded side; the compiled walk cannot say so in types.
  return (value) => (encode === undefined ? value : encode(value)) as I
}
