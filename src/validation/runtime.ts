import { isObject } from '../model/object.js'
import type { ValidateFunction } from './types.js'
import { rx } from '../model/regex.js'

/**
 * What the validators ajv generates at build time (scripts/validators.mjs) call at run time, in place of ajv's own
 * run-time modules and ajv-formats, so the package needs neither and bundles only what the schemas use.
 */

/**
 * String length as JSON Schema counts it for `minLength`/`maxLength`: code points, not UTF-16
 * units. Copied from ajv 8 (`ajv/dist/runtime/ucs2length`, MIT).
 */
export function ucs2length(str: string): number {
    const len = str.length
    let length = 0
    let pos = 0
    while (pos < len) {
        length++
        const value = str.charCodeAt(pos++)
        if (value >= 0xd800 && value <= 0xdbff && pos < len) {
            // A high surrogate followed by a low one is one code point.
            if ((str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++
        }
    }
    return length
}

// The two formats the shipped schemas use, copied from ajv-formats 3 (`dist/formats.js`,
// `fullFormats`, MIT): `date-time` is `{ validate }` (ajv's `compare`, for formatMinimum, is not
// needed), `uri` a function. test/validation/runtime.test.ts checks them against ajv-formats.
const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i
const DATE_TIME_SEPARATOR = /t|\s/i
const NOT_URI_FRAGMENT = /\/|:/
// ajv-formats' URI pattern, over lines of a readable width (rx drops the line breaks).
const URI = rx('i')`^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|
    %[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|
    (?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|
    (?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|
    (?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|
    (?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|
    [01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|
    (?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|
    2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|
    %[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|
    %[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|
    %[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|
    %[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$`

function isLeapYear(year: number): boolean {
    return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
}

function date(str: string): boolean {
    const m = DATE.exec(str)
    if (!m) return false
    const year = +(m[1] as string)
    const month = +(m[2] as string)
    const day = +(m[3] as string)
    return (
        month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && isLeapYear(year) ? 29 : (DAYS[month] as number))
    )
}

function time(str: string): boolean {
    const m = TIME.exec(str)
    if (!m) return false
    const hr = +(m[1] as string)
    const min = +(m[2] as string)
    const sec = +(m[3] as string)
    const tz = m[4]
    const tzSign = m[5] === '-' ? -1 : 1
    const tzH = +(m[6] || 0)
    const tzM = +(m[7] || 0)
    // ajv-formats' `getTime(true)`: a time zone is required.
    if (tzH > 23 || tzM > 59 || !tz) return false
    if (hr <= 23 && min <= 59 && sec < 60) return true
    // A leap second is valid only at 23:59:60 UTC.
    const utcMin = min - tzM * tzSign
    const utcHr = hr - tzH * tzSign - (utcMin < 0 ? 1 : 0)
    return (utcHr === 23 || utcHr === -1) && (utcMin === 59 || utcMin === -1) && sec < 61
}

/** The two formats the shipped schemas use (`date-time`, `uri`), in the shape ajv-formats gives them. */
export const formats = {
    'date-time': {
        validate(str: string): boolean {
            const parts = str.split(DATE_TIME_SEPARATOR)
            return parts.length === 2 && date(parts[0] as string) && time(parts[1] as string)
        }
    },
    uri(str: string): boolean {
        return NOT_URI_FRAGMENT.test(str) && URI.test(str)
    }
} as const

/** Deep equality of JSON values, as `const` and `enum` compare (ajv's `equal`, fast-deep-equal, on JSON). */
export function equal(a: unknown, b: unknown): boolean {
    if (a === b) return true
    if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => equal(x, b[i]))
    if (isObject(a) && isObject(b)) {
        const keys = Object.keys(a)
        return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]))
    }
    return Number.isNaN(a) && Number.isNaN(b)
}

/** The value a JSON Pointer names in `root`, or `undefined` when there is none. */
function valueAt(root: unknown, instancePath: string): unknown {
    let node = root
    if (instancePath === '') return node
    for (const raw of instancePath.slice(1).split('/')) {
        const key = raw.includes('~') ? raw.replace(/~1/g, '/').replace(/~0/g, '~') : raw
        if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined
        node = (node as Record<string, unknown>)[key]
    }
    return node
}

/**
 * A generated validator as the library exposes it: `errors` is `null` after a valid document, and each error
 * carries `data`, the value at its `instancePath` (what ajv's `verbose` adds, without embedding every schema in the
 * code as `verbose` does): the issue mappers quote it. ajv builds new error objects on every call, so `data` is set
 * on them in place (a copy of each made the error path several times slower).
 */
export function withData(generated: ValidateFunction): ValidateFunction {
    const run = ((data: unknown) => {
        const valid = generated(data)
        const errors = valid ? null : (generated.errors ?? [])
        if (errors !== null) for (const e of errors) (e as { data?: unknown }).data = valueAt(data, e.instancePath)
        run.errors = errors
        return valid
    }) as ValidateFunction
    run.errors = null
    return run
}
