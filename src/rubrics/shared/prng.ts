/**
 * A tiny seeded generator: a Weyl sequence (step 0x9E3779B9, the 32-bit golden ratio) passed
 * through a 32-bit avalanche mix. Same seed → same sequence on every engine, because it only uses
 * 32-bit integer operations (`Math.imul`, shifts, xor). Not for cryptography.
 */
export interface Prng {
    /** Next unsigned 32-bit integer. */
    next(): number
    /** Uniform integer in `[0, bound)` for `1 <= bound <= 2^21` (exact in doubles). */
    below(bound: number): number
}

/** Creates a generator from a uint32 seed (callers validate the seed). */
export function createPrng(seed: number): Prng {
    let state = seed >>> 0
    const next = (): number => {
        state = (state + 0x9e3779b9) >>> 0
        let z = state
        z = Math.imul(z ^ (z >>> 16), 0x7feb352d)
        z = Math.imul(z ^ (z >>> 15), 0x846ca68b)
        return (z ^ (z >>> 16)) >>> 0
    }
    // Multiply-shift keeps the high bits (the best-mixed ones); next() * bound < 2^53, so it is exact.
    const below = (bound: number): number => Math.floor((next() * bound) / 4294967296)
    return { next, below }
}
