/**
 * Strict UTF-8 decoding (RFC 3629) for bytes a registry receives: no overlong form, no surrogate code point, nothing
 * past U+10FFFF, no truncated sequence. Written out because the pure core has no `TextDecoder` in its types, and a
 * replacing decoder would turn a forged byte into U+FFFD silently.
 */

/** The text of UTF-8 bytes, or where and why they are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { at: number; why: string } {
    const parts: string[] = []
    let chunk: number[] = []
    let i = 0
    while (i < bytes.length) {
        const b = bytes[i] as number
        const size =
            b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0
        if (size === 0) return { at: i, why: `byte 0x${b.toString(16)} cannot start a UTF-8 sequence` }
        if (i + size > bytes.length) return { at: i, why: 'the text ends inside a UTF-8 sequence' }
        let cp = size === 1 ? b : b & (0xff >> (size + 1))
        for (let k = 1; k < size; k++) {
            const c = bytes[i + k] as number
            if ((c & 0xc0) !== 0x80) return { at: i + k, why: `byte 0x${c.toString(16)} is no continuation byte` }
            cp = (cp << 6) | (c & 0x3f)
        }
        const min = size === 3 ? 0x800 : size === 4 ? 0x10000 : 0
        if (cp < min) return { at: i, why: 'an overlong encoding' }
        if (cp >= 0xd800 && cp <= 0xdfff) return { at: i, why: 'an encoded surrogate' }
        if (cp > 0x10ffff) return { at: i, why: 'a code point past U+10FFFF' }
        chunk.push(cp)
        // fromCodePoint takes arguments: a bounded chunk keeps the call within the engine's argument limit.
        if (chunk.length === 4096) {
            parts.push(String.fromCodePoint(...chunk))
            chunk = []
        }
        i += size
    }
    parts.push(String.fromCodePoint(...chunk))
    return { text: parts.join('') }
}
