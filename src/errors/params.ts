// The params a code's message takes, read from its template at compile time: `createIssue('X-001', path, params)`
// accepts exactly the placeholders of X-001's message, so a missing or unknown one is a type error. The scan is
// `fillTemplate`'s (src/errors/issue.ts): `{name}` with name in [A-Za-z0-9_]+; other braces are text.
import type { ErrorCodeDefinition } from './definition.js'

/** One value substituted into a message. */
export type ParamValue = string | number | boolean | null | undefined

/** Values substituted into a message template. */
export type IssueParams = Readonly<Record<string, ParamValue>>

type Chars<S extends string, Acc = never> = S extends `${infer C}${infer R}` ? Chars<R, Acc | C> : Acc
type IdentChar = Chars<'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'>

type AllIdent<S extends string> = S extends `${infer C}${infer R}` ? (C extends IdentChar ? AllIdent<R> : false) : true
/** What follows the last `{` of a brace's inside (`{{{param}}}` holds the placeholder `param`). */
type AfterLastBrace<P extends string> = P extends `${string}{${infer Q}` ? AfterLastBrace<Q> : P
type Placeholder<P extends string> = P extends '' ? never : AllIdent<P> extends true ? P : never

/** The placeholder names of a message template, as a union (`never` when it has none). */
export type Placeholders<T extends string> = string extends T
    ? string
    : T extends `${string}{${infer P}}${infer Rest}`
      ? Placeholder<AfterLastBrace<P>> | Placeholders<Rest>
      : never

type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never

/**
 * The params argument of a code of `codes`: every placeholder of its message, and no other key. A code not known
 * at compile time (a union of codes, a table typed loosely) takes any params.
 */
export type ParamsArgs<Codes extends Readonly<Record<string, ErrorCodeDefinition>>, C extends keyof Codes> =
    true extends IsUnion<C>
        ? [params?: IssueParams]
        : string extends Codes[C]['template']
          ? [params?: IssueParams]
          : [Placeholders<Codes[C]['template']>] extends [never]
            ? [params?: Readonly<Record<string, never>>]
            : [params: { readonly [K in Placeholders<Codes[C]['template']>]: ParamValue }]
