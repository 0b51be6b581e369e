import { createIssue, describeValue } from '../errors/issue.js'
import { escapePointerToken } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { isRecord, own, testInputKeys, testsOf, USER_PARAM } from './shape.js'

/**
 * The classic mistakes of a first schema, found without a judge (docs/schema-checks.md, "Beginner
 * mistakes"): a test value the tool's input schema rejects (SCH-WARN-021), a user parameter without
 * a description (SCH-WARN-022), a generic tool name (SCH-WARN-023) and a description shorter than a
 * sentence (SCH-WARN-024). Plain warnings: the runtime runs such a schema, and no score moves for them.
 */

/**
 * Tool names that say nothing about what the tool returns. A closed list, matched against the whole
 * name case-insensitively with `_` and `-` removed: `getData` and `get_data` are generic,
 * `getDataFeed` is not. `search` and `list…` are not here: with the namespace in the tool's full
 * name (`search_wikipedia`) they say what they do.
 */
export const GENERIC_TOOL_NAMES: readonly string[] = Object.freeze([
    'api',
    'call',
    'data',
    'do',
    'endpoint',
    'execute',
    'fetch',
    'fetchData',
    'get',
    'getData',
    'getInfo',
    'getResult',
    'getResults',
    'handler',
    'info',
    'invoke',
    'main',
    'query',
    'request',
    'result',
    'run',
    'test',
    'tool'
])

/** Fewest words a tool description has to be read as a sentence ("Returns data." has two). */
export const MIN_DESCRIPTION_WORDS = 3

const GENERIC = new Set(GENERIC_TOOL_NAMES.map((n) => n.toLowerCase()))

/** `getData`, `get_data`, `GET-DATA` → `getdata`. */
function normalName(name: string): string {
    return name.replace(/[_-]/g, '').toLowerCase()
}

/** Whether `name` is one of {@link GENERIC_TOOL_NAMES}. */
export function isGenericToolName(name: string): boolean {
    return GENERIC.has(normalName(name))
}

/** The words of a text: runs of letters and digits, lower-cased. */
function wordsOf(text: string): string[] {
    return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/** The words of a camelCase / snake_case / kebab-case name. */
function nameWords(name: string): string[] {
    return wordsOf(name.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2'))
}

/**
 * Why a tool description is shorter than a sentence, or null when it is not: empty, fewer than
 * {@link MIN_DESCRIPTION_WORDS} words, or only the tool name's own words (`Get token price` for
 * `getTokenPrice`). Whether a word is a verb is not guessed: without a dictionary that would flag
 * good noun-phrase descriptions ("Christmas markets in Berlin via Berlin.de. …").
 */
export function shortDescriptionReason(tool: string, description: string): string | null {
    const words = wordsOf(description)
    if (words.length === 0) return 'is empty'
    const quoted = `'${describeValue(description.trim())}'`
    if (words.length < MIN_DESCRIPTION_WORDS)
        return `has ${words.length === 1 ? 'one word' : `${words.length} words`} (${quoted})`
    const own = new Set(nameWords(tool))
    return words.every((w) => own.has(w)) ? `only repeats the tool name (${quoted})` : null
}

/** The primitives whose test values are checked, as flowmcp-core's ZodBuilder matches them (`startsWith`). */
const CHECKED_PRIMITIVES = ['string()', 'number()', 'boolean()', 'object()', 'array()'] as const
type Checked = (typeof CHECKED_PRIMITIVES)[number]

/** The value as the message names it: `the string '52.5'`, `the number 5`, `an array`. */
function shownValue(value: unknown): string {
    if (typeof value === 'string') return `the string '${describeValue(value)}'`
    if (Array.isArray(value)) return 'an array'
    if (value === null) return 'null'
    if (typeof value === 'object') return 'an object'
    return `the ${typeof value} ${describeValue(value)}`
}

/** The numeric string the runtime would put in a URL unchanged (`'52.5'`, `' 10 '`), or null. */
function numericString(value: string): number | null {
    if (value.trim() === '') return null
    const n = Number(value)
    return Number.isFinite(n) ? n : null
}

/**
 * What is wrong with a test value for a parameter of the primitive, or null when the runtime's
 * input schema accepts it. flowmcp-core builds that schema with zod without coercion
 * (`z.number()`, `z.string()`, `z.boolean()`, `z.object({})`, `z.array(z.string())`), so an MCP client
 * calling the tool with this value is refused, even where the request the test builds would look
 * the same (a number and its numeric string make the same URL).
 */
export function testValueProblem(primitive: Checked, value: unknown): string | null {
    const rejects = `the tool's input schema (zod ${primitive}, no coercion) rejects it`
    if (value === null) return `${rejects}; leave the key out of the test for an optional parameter`
    switch (primitive) {
        case 'number()': {
            if (typeof value === 'number') return Number.isNaN(value) ? rejects : null
            const n = typeof value === 'string' ? numericString(value) : null
            if (n !== null)
                return `the runtime puts a numeric string in a URL unchanged (a JSON body gets a string), but ${rejects}; write ${String(n)} without quotes`
            return `${rejects}; write a number`
        }
        case 'string()':
            if (typeof value === 'string') return null
            return typeof value === 'number' || typeof value === 'boolean'
                ? `${rejects}; write '${String(value)}' in quotes`
                : `${rejects}; write a string`
        case 'boolean()':
            if (typeof value === 'boolean') return null
            return value === 'true' || value === 'false'
                ? `${rejects}; write ${value} without quotes`
                : `${rejects}; write true or false`
        case 'array()':
            if (Array.isArray(value))
                return value.every((v) => typeof v === 'string')
                    ? null
                    : `the tool's input schema (zod array of strings) rejects an item that is not a string; write every item as a string`
            return `${rejects}; write an array of strings, such as [${typeof value === 'string' ? `'${describeValue(value)}'` : "'a'"}]`
        case 'object()':
            return isRecord(value) ? null : `${rejects}; write an object`
    }
}

/** The checked primitive a `z.primitive` starts with, as the runtime matches it; null for enums and others. */
function checkedPrimitive(primitive: unknown): Checked | null {
    if (typeof primitive !== 'string') return null
    return CHECKED_PRIMITIVES.find((p) => primitive.startsWith(p)) ?? null
}

/** A parameter the caller fills: its key, where it is declared, its checked primitive. */
interface UserParameter {
    readonly index: number
    readonly primitive: Checked | null
    readonly described: boolean
}

/**
 * The tool's user parameters (`{{USER_PARAM}}` in `position.value`), first declaration of each key.
 * A fixed or server-parameter value is never taken from the caller or a test (flowmcp-core
 * `Fetch`), so its description and test values are not what a caller acts on.
 */
function userParameters(tool: Readonly<Record<string, unknown>>): Map<string, UserParameter> {
    const out = new Map<string, UserParameter>()
    const parameters = own(tool, 'parameters')
    if (!Array.isArray(parameters)) return out
    parameters.forEach((param, index) => {
        const position = own(param, 'position')
        const key = own(position, 'key')
        const value = own(position, 'value')
        if (typeof key !== 'string' || typeof value !== 'string' || !value.includes(USER_PARAM) || out.has(key)) return
        const description = own(param, 'description')
        out.set(key, {
            index,
            primitive: checkedPrimitive(own(own(param, 'z'), 'primitive')),
            described: typeof description === 'string' && description.trim() !== ''
        })
    })
    return out
}

function checkTestValues(name: string, tool: unknown, base: string, params: Map<string, UserParameter>, out: Issue[]) {
    testsOf(tool).forEach((test, index) => {
        if (!isRecord(test)) return
        for (const key of testInputKeys(test)) {
            const param = params.get(key)
            if (param === undefined || param.primitive === null) continue
            const value = own(test, key)
            const detail = testValueProblem(param.primitive, value)
            if (detail === null) continue
            out.push(
                createIssue('SCH-WARN-021', `${base}/tests/${index}/${escapePointerToken(key)}`, {
                    index,
                    tool: name,
                    key,
                    value: shownValue(value),
                    primitive: param.primitive,
                    detail
                })
            )
        }
    })
}

/**
 * The beginner-mistake checks of one tool the structural checks have read (`base` is its pointer).
 * Findings are placed where the author edits: the tool's key, the description, the parameter, the
 * test value.
 */
export function checkBeginnerMistakes(
    name: string,
    tool: Readonly<Record<string, unknown>>,
    base: string,
    out: Issue[]
) {
    if (isGenericToolName(name)) out.push(createIssue('SCH-WARN-023', base, { tool: name }))
    const description = own(tool, 'description')
    // '' is the runtime's own error (SCH-004); whitespace only passes it and is caught here.
    if (typeof description === 'string' && description !== '') {
        const detail = shortDescriptionReason(name, description)
        if (detail !== null) out.push(createIssue('SCH-WARN-024', `${base}/description`, { tool: name, detail }))
    }
    const params = userParameters(tool)
    for (const [key, param] of params) {
        if (!param.described)
            out.push(createIssue('SCH-WARN-022', `${base}/parameters/${param.index}`, { key, tool: name }))
    }
    checkTestValues(name, tool, base, params, out)
}
