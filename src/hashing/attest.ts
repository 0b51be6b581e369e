/**
 * Who graded, proven rather than claimed: a DSSE envelope (the in-toto / Sigstore attestation envelope) over an
 * entry's RFC 8785 canonical bytes, signed with Ed25519 (RFC 8032, `@noble/curves`: audited, pure JavaScript, no
 * code generation, so it runs under a strict CSP, in browsers and Workers). Keys are JWK (RFC 8037:
 * `{ kty: 'OKP', crv: 'Ed25519', x, d? }`), what node:crypto, WebCrypto and jose read and write.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { canonicalize } from 'json-canonicalize'
import { ATTEST_CODES } from '../errors/catalogue/attest.js'
import { describeValue, issueFactory, typeOfValue } from '../errors/issue.js'
import type { Issue } from '../errors/types.js'
import { isObject } from '../model/object.js'
import { bytesToBase64 } from './base64.js'

/** Issues of the attestation codes only: a bundle that signs or verifies carries these messages, not the catalogue. */
export const attestIssue = /* @__PURE__ */ issueFactory(ATTEST_CODES)

/** The DSSE payload type of a grading entry. */
export const ENTRY_PAYLOAD_TYPE = 'application/vnd.flowmcp-grading.entry+json'

/** One DSSE signature: the key's id and the signature, standard base64. */
export interface DsseSignature {
    readonly keyid: string
    readonly sig: string
}

/** A DSSE envelope (https://github.com/secure-systems-lab/dsse): the payload and its type, base64, and signatures. */
export interface DsseEnvelope {
    readonly payloadType: string
    readonly payload: string
    readonly signatures: readonly DsseSignature[]
}

/** An Ed25519 key as RFC 8037 writes it; `d` only in a private key. `kid` names it (else its RFC 7638 thumbprint). */
export interface Ed25519Jwk {
    readonly kty: 'OKP'
    readonly crv: 'Ed25519'
    readonly x: string
    readonly d?: string
    readonly kid?: string
}

/**
 * A key a registry trusts: an Ed25519 public JWK, and optionally the grader names (`graderIdentity.name` of the LLM
 * and human answers) it may sign for; without `graders` it may sign for any.
 */
export interface TrustedKey extends Ed25519Jwk {
    readonly graders?: readonly string[]
}

const B64URL = /^[A-Za-z0-9_-]*$/
const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Bytes of a base64 text (standard, padded; or unpadded base64url when `url`), or `null` when it is not one. */
function decodeBase64(text: string, url: boolean): Uint8Array | null {
    if (url ? !B64URL.test(text) || text.length % 4 === 1 : !B64.test(text)) return null
    const plain = url ? text.replace(/-/g, '+').replace(/_/g, '/') : text.replace(/=+$/, '')
    const out = new Uint8Array(Math.floor((plain.length * 3) / 4))
    let bits = 0
    let value = 0
    let at = 0
    for (const ch of plain) {
        value = (value << 6) | ALPHABET.indexOf(ch)
        bits += 6
        if (bits >= 8) {
            bits -= 8
            out[at++] = (value >> bits) & 0xff
        }
    }
    return out.subarray(0, at)
}

/** Unpadded base64url (RFC 4648 §5), as JWK writes key material. */
export function bytesToBase64Url(bytes: Uint8Array): string {
    return bytesToBase64(bytes).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
}

/** DSSE's pre-authentication encoding: `DSSEv1 <len type> <type> <len body> <body>`, lengths in bytes. */
function pae(payloadType: string, payload: Uint8Array): Uint8Array {
    const type = utf8ToBytes(payloadType)
    const head = utf8ToBytes(`DSSEv1 ${type.length} ${payloadType} ${payload.length} `)
    const out = new Uint8Array(head.length + payload.length)
    out.set(head)
    out.set(payload, head.length)
    return out
}

/** The RFC 7638 thumbprint of an Ed25519 public key: its default key id. */
export function jwkThumbprint(x: string): string {
    return bytesToBase64Url(sha256(utf8ToBytes(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`)))
}

/** A JWK read as an Ed25519 key: its public bytes, private bytes when `d` is there, and its id; or why not. */
interface ReadKey {
    readonly publicKey: Uint8Array
    readonly secretKey: Uint8Array | null
    readonly keyId: string
    readonly graders: readonly string[] | null
}

/** Reads an RFC 8037 Ed25519 JWK; a `d` must give the `x` beside it. */
export function readJwk(
    value: unknown,
    path: string,
    wantPrivate: boolean
): { key: ReadKey | null; issue: Issue | null } {
    const bad = (detail: string): { key: null; issue: Issue } => ({
        key: null,
        issue: attestIssue('ATT-001', path, { detail })
    })
    if (!isObject(value)) return bad(`expected an Ed25519 JWK object, got ${typeOfValue(value)}`)
    if (value.kty !== 'OKP' || value.crv !== 'Ed25519')
        return bad(
            `expected kty OKP and crv Ed25519 (RFC 8037), got ${describeValue(value.kty)}/${describeValue(value.crv)}`
        )
    const d = typeof value.d === 'string' ? decodeBase64(value.d, true) : null
    if (wantPrivate && (d === null || d.length !== 32)) return bad('a private key needs d, 32 bytes of base64url')
    const derived = d !== null && d.length === 32 ? ed25519.getPublicKey(d) : null
    const x = typeof value.x === 'string' ? decodeBase64(value.x, true) : null
    if (x === null && derived === null) return bad('x must be the 32-byte public key, base64url')
    if (x !== null && x.length !== 32) return bad('x must be the 32-byte public key, base64url')
    if (x !== null && derived !== null && bytesToBase64Url(x) !== bytesToBase64Url(derived))
        return bad('x is not the public key of d')
    const publicKey = (x ?? derived) as Uint8Array
    const keyId =
        typeof value.kid === 'string' && value.kid.length > 0 ? value.kid : jwkThumbprint(bytesToBase64Url(publicKey))
    const graders = Array.isArray(value.graders)
        ? value.graders.filter((g): g is string => typeof g === 'string')
        : null
    return { key: { publicKey, secretKey: wantPrivate ? d : null, keyId, graders }, issue: null }
}

/** The bytes a signature covers: the entry's RFC 8785 canonical JSON, UTF-8. */
export function canonicalBytes(entry: unknown): Uint8Array {
    return utf8ToBytes(canonicalize(entry))
}

/** Signs the canonical bytes of an entry already checked as plain JSON; the key already read. */
export function signEntryBytes(entry: unknown, key: ReadKey): DsseEnvelope {
    const payload = canonicalBytes(entry)
    const sig = ed25519.sign(pae(ENTRY_PAYLOAD_TYPE, payload), key.secretKey as Uint8Array)
    return {
        payloadType: ENTRY_PAYLOAD_TYPE,
        payload: bytesToBase64(payload),
        signatures: [{ keyid: key.keyId, sig: bytesToBase64(sig) }]
    }
}

/** The envelope's payload bytes and its signatures, or the issue with its shape. */
function readEnvelope(envelope: unknown): { payload: Uint8Array; signatures: DsseSignature[] } | Issue {
    if (!isObject(envelope))
        return attestIssue('ATT-001', '/envelope', {
            detail: `expected a DSSE envelope object, got ${typeOfValue(envelope)}`
        })
    if (envelope.payloadType !== ENTRY_PAYLOAD_TYPE)
        return attestIssue('ATT-001', '/envelope/payloadType', {
            detail: `expected ${ENTRY_PAYLOAD_TYPE}, got ${describeValue(envelope.payloadType)}`
        })
    const payload = typeof envelope.payload === 'string' ? decodeBase64(envelope.payload, false) : null
    if (payload === null)
        return attestIssue('ATT-001', '/envelope/payload', { detail: 'the payload must be standard base64' })
    const list = Array.isArray(envelope.signatures) ? (envelope.signatures as unknown[]) : []
    const signatures = list.filter(
        (s): s is DsseSignature =>
            isObject(s) && typeof s.sig === 'string' && (s.keyid === undefined || typeof s.keyid === 'string')
    )
    if (signatures.length === 0 || signatures.length !== list.length)
        return attestIssue('ATT-001', '/envelope/signatures', { detail: 'expected a non-empty list of { keyid, sig }' })
    return { payload, signatures }
}

/** An Ed25519 check that answers false for key bytes that are no curve point, instead of throwing. */
function verifies(sig: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
    try {
        return ed25519.verify(sig, message, publicKey)
    } catch {
        return false
    }
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((v, i) => v === b[i])

/** The trusted keys read, or the issues of the ones that cannot be. */
function readTrustedKeys(trustedKeys: unknown): { keys: ReadKey[]; issues: Issue[] } {
    if (!Array.isArray(trustedKeys) || trustedKeys.length === 0)
        return {
            keys: [],
            issues: [
                attestIssue('ATT-001', '/trustedKeys', { detail: 'expected a non-empty list of Ed25519 public JWKs' })
            ]
        }
    const keys: ReadKey[] = []
    const issues: Issue[] = []
    trustedKeys.forEach((k: unknown, i) => {
        const read = readJwk(k, `/trustedKeys/${i}`, false)
        if (read.key !== null) keys.push(read.key)
        if (read.issue !== null) issues.push(read.issue)
    })
    return { keys, issues }
}

/** The first signature one of the keys verifies over the payload; by key id when the signature names one. */
function verifiedKey(
    payload: Uint8Array,
    signatures: readonly DsseSignature[],
    keys: readonly ReadKey[]
): ReadKey | null {
    const message = pae(ENTRY_PAYLOAD_TYPE, payload)
    for (const s of signatures) {
        const sig = decodeBase64(s.sig, false)
        if (sig === null || sig.length !== 64) continue
        for (const key of keys) {
            if (s.keyid !== undefined && s.keyid !== '' && s.keyid !== key.keyId) continue
            if (verifies(sig, message, key.publicKey)) return key
        }
    }
    return null
}

/** LLM and human answers whose grader the signing key may not sign for (ATT-004). */
function graderIssues(entry: Record<string, unknown>, key: ReadKey): Issue[] {
    if (key.graders === null) return []
    const allowed = key.graders
    const issues: Issue[] = []
    const gradings = Array.isArray(entry.gradings) ? (entry.gradings as unknown[]) : []
    gradings.forEach((g, i) => {
        const id = isObject(g) && isObject(g.graderIdentity) ? g.graderIdentity : null
        if (id === null || (id.kind !== 'llm' && id.kind !== 'human')) return
        if (typeof id.name === 'string' && allowed.includes(id.name)) return
        issues.push(
            attestIssue('ATT-004', `/gradings/${i}/graderIdentity/name`, {
                keyId: key.keyId,
                grader: describeValue(id.name),
                graders: allowed.join(', ') || 'none'
            })
        )
    })
    return issues
}

/**
 * Verifies an envelope for an entry: its payload is the entry's canonical bytes (ATT-002), a trusted key signed it
 * (ATT-003), and that key may sign for the entry's LLM and human graders (ATT-004). Returns the key's id.
 */
export function verifyEntryEnvelope(
    entry: Record<string, unknown>,
    envelope: unknown,
    trustedKeys: unknown
): { issues: Issue[]; graderKeyId: string | null } {
    if (envelope === undefined) return { issues: readTrustedKeys(trustedKeys).issues, graderKeyId: null }
    const { keys, issues } = readTrustedKeys(trustedKeys)
    const read = readEnvelope(envelope)
    if (!('payload' in read)) return { issues: [...issues, read], graderKeyId: null }
    if (!sameBytes(read.payload, canonicalBytes(entry)))
        return { issues: [...issues, attestIssue('ATT-002', '/envelope/payload')], graderKeyId: null }
    const key = verifiedKey(read.payload, read.signatures, keys)
    if (key === null)
        return {
            issues: [
                ...issues,
                attestIssue('ATT-003', '/envelope/signatures', {
                    keyIds: read.signatures.map((s) => s.keyid || '(none)').join(', ')
                })
            ],
            graderKeyId: null
        }
    return { issues: [...issues, ...graderIssues(entry, key)], graderKeyId: key.keyId }
}
