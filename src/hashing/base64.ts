import { sha256 } from '@noble/hashes/sha2.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/**
 * Standard base64 (RFC 4648 §4, padded) of some bytes. Written out because the pure core has
 * neither `Buffer` nor `btoa` in every host it runs in.
 */
export function bytesToBase64(bytes: Uint8Array): string {
    let out = ''
    for (let i = 0; i < bytes.length; i += 3) {
        const a = bytes[i] as number
        const b = i + 1 < bytes.length ? (bytes[i + 1] as number) : 0
        const c = i + 2 < bytes.length ? (bytes[i + 2] as number) : 0
        const n = (a << 16) | (b << 8) | c
        out += ALPHABET[(n >> 18) & 63]
        out += ALPHABET[(n >> 12) & 63]
        out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : '='
        out += i + 2 < bytes.length ? ALPHABET[n & 63] : '='
    }
    return out
}

/** The base64 SHA-256 of a text's UTF-8 bytes, as a Content-Security-Policy hash source wants it. */
export function sha256Base64(text: string): string {
    return bytesToBase64(sha256(utf8ToBytes(text)))
}
