/**
 * Exact rational arithmetic over BigInt, so that rubric maths has no binary floating-point
 * artefacts: `0.1 + 0.2` is exactly `3/10` and `8.995` rounds to `9.00`.
 *
 * A JavaScript number is read as the decimal its shortest round-trip form spells (`String(x)`),
 * which is the decimal the author wrote in JSON. All values stay exact until they are rounded
 * once, half away from zero, at the precision the rubric asks for.
 */
export interface Rational {
    /** Numerator, carries the sign. */
    readonly n: bigint
    /** Denominator, always > 0. */
    readonly d: bigint
}

export const ZERO: Rational = Object.freeze({ n: 0n, d: 1n })
export const ONE: Rational = Object.freeze({ n: 1n, d: 1n })

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/

function gcd(a: bigint, b: bigint): bigint {
    let x = a < 0n ? -a : a
    let y = b < 0n ? -b : b
    while (y !== 0n) {
        const t = x % y
        x = y
        y = t
    }
    return x
}

// Terms are not reduced after every operation: the pipelines here are short, so the numbers stay
// small, and skipping the gcd makes arithmetic several times faster. `reduce` runs where a size matters.
function make(n: bigint, d: bigint): Rational {
    if (d < 0n) {
        return { n: -n, d: -d }
    }
    return n === 0n ? ZERO : { n, d }
}

/** The same value in lowest terms. */
export function reduce(a: Rational): Rational {
    const g = gcd(a.n, a.d)
    return g === 1n || g === 0n ? a : { n: a.n / g, d: a.d / g }
}

/** `n / d`; `d` must not be 0 (callers check). */
export function ratio(n: bigint | number, d: bigint | number = 1n): Rational {
    return make(BigInt(n), BigInt(d))
}

/** The exact decimal value of a finite number's shortest round-trip form. */
export function fromNumber(x: number): Rational {
    if (Number.isSafeInteger(x)) {
        return x === 0 ? ZERO : { n: BigInt(x), d: 1n }
    }
    const match = DECIMAL.exec(String(x))
    if (match === null) {
        // Only NaN/Infinity reach here; callers validate first, so this is a bug, not bad input.
        throw new RangeError(`not a finite number: ${String(x)}`)
    }
    const [, sign = '', whole = '0', fraction = '', exponent = '0'] = match
    let n = BigInt(whole + fraction)
    let d = 10n ** BigInt(fraction.length)
    const e = Number(exponent)
    if (e > 0) {
        n *= 10n ** BigInt(e)
    } else if (e < 0) {
        d *= 10n ** BigInt(-e)
    }
    return make(sign === '-' ? -n : n, d)
}

export function add(a: Rational, b: Rational): Rational {
    return a.d === b.d ? make(a.n + b.n, a.d) : make(a.n * b.d + b.n * a.d, a.d * b.d)
}

export function sub(a: Rational, b: Rational): Rational {
    return a.d === b.d ? make(a.n - b.n, a.d) : make(a.n * b.d - b.n * a.d, a.d * b.d)
}

export function mul(a: Rational, b: Rational): Rational {
    return make(a.n * b.n, a.d * b.d)
}

/** `a / b`; `b` must not be zero (callers check). */
export function div(a: Rational, b: Rational): Rational {
    return make(a.n * b.d, a.d * b.n)
}

export function sum(values: readonly Rational[]): Rational {
    let total = ZERO
    for (const v of values) {
        total = add(total, v)
    }
    return total
}

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`. */
export function cmp(a: Rational, b: Rational): -1 | 0 | 1 {
    const left = a.n * b.d
    const right = b.n * a.d
    return left < right ? -1 : left > right ? 1 : 0
}

export function isZero(a: Rational): boolean {
    return a.n === 0n
}

export function abs(a: Rational): Rational {
    return a.n < 0n ? { n: -a.n, d: a.d } : a
}

export function min(a: Rational, b: Rational): Rational {
    return cmp(a, b) <= 0 ? a : b
}

export function max(a: Rational, b: Rational): Rational {
    return cmp(a, b) >= 0 ? a : b
}

/** `min(hi, max(lo, x))`. */
export function clamp(x: Rational, lo: Rational, hi: Rational): Rational {
    return min(hi, max(lo, x))
}

/**
 * Rounds to `places` decimals, half away from zero, and returns the scaled integer
 * (`roundScaled(8.995, 2)` → `900n`).
 */
export function roundScaled(a: Rational, places: number): bigint {
    const scaled = a.n * 10n ** BigInt(places)
    const negative = scaled < 0n
    const magnitude = negative ? -scaled : scaled
    let q = magnitude / a.d
    const r = magnitude % a.d
    if (2n * r >= a.d) {
        q += 1n
    }
    return negative ? -q : q
}

/** A scaled integer as a number: `scaledToNumber(899n, 2)` → `8.99` (one correctly rounded division). */
export function scaledToNumber(i: bigint, places: number): number {
    const value = Number(i) / 10 ** places
    return value === 0 ? 0 : value
}

/** A scaled integer as fixed-point text: `formatScaled(900n, 2)` → `'9.00'`. */
export function formatScaled(i: bigint, places: number): string {
    const negative = i < 0n
    const digits = (negative ? -i : i).toString().padStart(places + 1, '0')
    const text = places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`
    return negative ? `-${text}` : text
}

/** Rounds to `places` decimals (half away from zero) and returns the nearest number to that decimal. */
export function toFixedNumber(a: Rational, places: number): number {
    return scaledToNumber(roundScaled(a, places), places)
}

/** The nearest number to `q` (exact when its reduced terms fit in 2^53, or its denominator is a power of ten). */
export function toNumber(q: Rational): number {
    const limit = 9007199254740991n
    const fits = (x: Rational): boolean => x.n <= limit && x.n >= -limit && x.d <= limit
    const small = fits(q) ? q : reduce(q)
    if (fits(small)) {
        const value = Number(small.n) / Number(small.d)
        return value === 0 ? 0 : value
    }
    // Large terms: take ~21 significant digits of the quotient and let the decimal parser round
    // once. The division is exact when the denominator is a power of ten (every decimal input).
    const negative = q.n < 0n
    const magnitude = negative ? -q.n : q.n
    const shift = 21 - (magnitude.toString().length - q.d.toString().length)
    const digits = shift >= 0 ? (magnitude * 10n ** BigInt(shift)) / q.d : magnitude / (q.d * 10n ** BigInt(-shift))
    const value = Number(`${negative ? '-' : ''}${digits}e${-shift}`)
    return value === 0 ? 0 : value
}

/** Decimal text for messages and reports: at most `places` decimals, trailing zeros dropped. */
export function decimalText(a: Rational, places = 12): string {
    const text = formatScaled(roundScaled(a, places), places)
    return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text
}
