import { generateKeyPairSync, sign as nodeSign } from 'node:crypto'
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildAnswers, questionRows } from '../../src/deterministic/answers.js'
import { canonicalBytes } from '../../src/hashing/attest.js'
import { schemaHashOfInspected } from '../../src/hashing/hash-generator.js'
import { readModuleSource } from '../../src/schema/source-loader.js'
import {
    acceptGradingEntry,
    Grading,
    validateGradingEntry,
    type DsseEnvelope,
    type GradingEntry,
    type Issue
} from '../../src/index.js'
import { catalogueEntry } from '../grading/helpers.js'

const NOW = '2026-06-01T00:00:00Z'
const errorCodes = (issues: readonly Issue[]): string[] =>
    [...new Set(issues.filter((i) => i.severity === 'error').map((i) => i.code))].sort()

/** An Ed25519 key pair as node:crypto writes JWK: what a registry's grader would hold. */
function keyPair(kid?: string): { privateKey: Record<string, unknown>; publicKey: Record<string, unknown> } {
    const pair = generateKeyPairSync('ed25519')
    const privateKey = pair.privateKey.export({ format: 'jwk' }) as Record<string, unknown>
    const publicKey = pair.publicKey.export({ format: 'jwk' }) as Record<string, unknown>
    return kid === undefined
        ? { privateKey, publicKey }
        : { privateKey: { ...privateKey, kid }, publicKey: { ...publicKey, kid } }
}

function signed(entry: GradingEntry, privateKey: unknown): DsseEnvelope {
    const r = Grading.sign({ entry, privateKey })
    if (r.envelope === null) throw new Error(JSON.stringify(r.errors))
    return r.envelope
}

describe('attestation: Grading.sign and the envelope check (issue 45)', () => {
    it('signs with a node:crypto JWK and verifies: the grader is bound to the key, its answers attested', () => {
        const { privateKey, publicKey } = keyPair('judge-2026')
        const entry = catalogueEntry('single-test')
        const envelope = signed(entry, privateKey)
        expect(envelope.payloadType).toBe('application/vnd.flowmcp-grading.entry+json')
        expect(envelope.signatures[0]?.keyid).toBe('judge-2026')
        const r = validateGradingEntry({ entry, envelope, trustedKeys: [publicKey], strict: true, now: NOW })
        if (!r.valid) throw new Error(JSON.stringify(r.errors))
        expect(r.provenance.graderKeyId).toBe('judge-2026')
        expect(r.provenance.answers.every((a) => a.standing === 'attested')).toBe(true)
        const unsigned = validateGradingEntry({ entry, now: NOW })
        if (!unsigned.valid) throw new Error('invalid')
        expect(unsigned.provenance.answers.filter((a) => a.standing === 'self-declared').length).toBe(7)
    })

    it('names a key without kid by its RFC 7638 thumbprint', () => {
        const { privateKey, publicKey } = keyPair()
        const r = Grading.sign({ entry: catalogueEntry('single-test'), privateKey })
        expect(r.keyId).toMatch(/^[A-Za-z0-9_-]{43}$/)
        const v = validateGradingEntry({
            entry: catalogueEntry('single-test'),
            envelope: r.envelope,
            trustedKeys: [publicKey]
        })
        expect(v.valid && v.provenance.graderKeyId).toBe(r.keyId)
    })

    it('verifies a DSSE signature node:crypto made over the same pre-authentication encoding', () => {
        const pair = generateKeyPairSync('ed25519')
        const entry = catalogueEntry('single-test')
        const payload = Buffer.from(canonicalBytes(entry))
        const type = 'application/vnd.flowmcp-grading.entry+json'
        const pae = Buffer.concat([Buffer.from(`DSSEv1 ${type.length} ${type} ${payload.length} `), payload])
        const sig = nodeSign(null, pae, pair.privateKey).toString('base64')
        const envelope = { payloadType: type, payload: payload.toString('base64'), signatures: [{ keyid: '', sig }] }
        const r = validateGradingEntry({ entry, envelope, trustedKeys: [pair.publicKey.export({ format: 'jwk' })] })
        expect(r.valid).toBe(true)
    })

    it('rejects a signature by an untrusted key (ATT-003) and an entry changed after signing (ATT-002)', () => {
        const grader = keyPair('a')
        const other = keyPair('a')
        const entry = catalogueEntry('single-test')
        const envelope = signed(entry, grader.privateKey)
        expect(errorCodes(validateGradingEntry({ entry, envelope, trustedKeys: [other.publicKey] }).errors)).toEqual([
            'ATT-003'
        ])
        const changed = { ...entry, gradings: entry.gradings.map((g, i) => (i === 5 ? { ...g, score: 5 } : g)) }
        expect(
            errorCodes(validateGradingEntry({ entry: changed, envelope, trustedKeys: [grader.publicKey] }).errors)
        ).toContain('ATT-002')
    })

    it('binds a key to its graders: a fake grader name under a trusted key is ATT-004', () => {
        const { privateKey, publicKey } = keyPair('judge')
        const entry = catalogueEntry('single-test')
        const fake = {
            ...entry,
            gradings: entry.gradings.map((g) =>
                g.graderIdentity.kind === 'llm'
                    ? { ...g, graderIdentity: { ...g.graderIdentity, name: 'openai/gpt-5-official' } }
                    : g
            )
        } as GradingEntry
        const envelope = signed(fake, privateKey)
        const name = entry.gradings.find((g) => g.graderIdentity.kind === 'llm')?.graderIdentity.name as string
        const trusted = [{ ...publicKey, graders: [name] }]
        expect(validateGradingEntry({ entry, envelope: signed(entry, privateKey), trustedKeys: trusted }).valid).toBe(
            true
        )
        expect(errorCodes(validateGradingEntry({ entry: fake, envelope, trustedKeys: trusted }).errors)).toEqual([
            'ATT-004'
        ])
    })

    it('refuses bad keys and envelopes with a coded issue, never a throw (ATT-001, ATT-005)', () => {
        const entry = catalogueEntry('single-test')
        for (const privateKey of [undefined, {}, { kty: 'OKP', crv: 'Ed25519', x: 'AA' }, { kty: 'RSA' }])
            expect(errorCodes(Grading.sign({ entry, privateKey }).errors)).toEqual(['ATT-001'])
        const { privateKey, publicKey } = keyPair()
        expect(errorCodes(Grading.sign({ entry: { bogus: 1 }, privateKey }).errors)).toContain('ATT-005')
        const envelope = signed(entry, privateKey)
        for (const bad of [
            null,
            {},
            { ...envelope, payloadType: 'x' },
            { ...envelope, payload: '***' },
            { ...envelope, signatures: [] }
        ])
            expect(errorCodes(validateGradingEntry({ entry, envelope: bad, trustedKeys: [publicKey] }).errors)).toEqual(
                ['ATT-001']
            )
        expect(errorCodes(validateGradingEntry({ entry, envelope, trustedKeys: [] }).errors)).toContain('ATT-001')
        expect(errorCodes(validateGradingEntry({ entry, envelope }).errors)).toContain('ATT-001')
    })

    it('acceptGradingEntry takes the envelope as text too', () => {
        const { privateKey, publicKey } = keyPair('k')
        const entry = catalogueEntry('single-test')
        const envelope = JSON.stringify(signed(entry, privateKey))
        const r = acceptGradingEntry({ text: JSON.stringify(entry), envelope, trustedKeys: [publicKey], now: NOW })
        expect(r.valid && r.provenance.graderKeyId).toBe('k')
    })
})

const SOURCES = ['openmeteo/forecast.mjs', 'quakefeed/events.mjs', 'etherscan/contracts.mjs'].map((p) =>
    readFileSync(new URL(`../../examples/providers/${p}`, import.meta.url), 'utf8')
)

/** An honest tools-aggregate-schema entry for a source: the code's answers, and the judge's scores drawn at random. */
function honestFor(source: string, scores: readonly number[]): GradingEntry {
    const main = readModuleSource({ source }).module?.main as Record<string, unknown>
    const now = '2026-05-29T10:00:00Z'
    const det = buildAnswers({ main, source, questions: questionRows(), now }).byArea['tools-aggregate-schema']
    const llm = [2, 3, 4, 5, 6].map((n, i) => ({
        questionId: `Q-tools-aggregate-schema-0${n}`,
        score: scores[i] ?? 3,
        weight: n >= 5 ? 0.5 : 0.25,
        determinism: 'non-deterministic',
        graderIdentity: { kind: 'llm', name: 'judge', version: '1' },
        llmModel: 'judge',
        selectionContext: { groupId: 'g', personaIds: ['decision-maker'] },
        timestamp: now,
        reasoning: 'Scored against the question.'
    }))
    const { entry, errors } = Grading.createEntry({
        schemaId: `${String(main.namespace)}.schema`,
        area: 'tools-aggregate-schema',
        version: 'flowmcp/4.0.0',
        schemaHash: schemaHashOfInspected(main).short as string,
        gradingMode: 'full',
        now,
        gradings: [...det, ...llm]
    })
    if (entry === null) throw new Error(JSON.stringify(errors))
    return JSON.parse(JSON.stringify(entry)) as GradingEntry
}

describe('properties of signing and the re-check (issue 45, Done when)', () => {
    const key = keyPair('prop')
    const honest = fc.record({
        source: fc.constantFrom(...SOURCES),
        scores: fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 5, maxLength: 5 })
    })

    it('signing then verifying passes for every honest entry, and the source re-check accepts it', () => {
        fc.assert(
            fc.property(honest, ({ source, scores }) => {
                const entry = honestFor(source, scores)
                const envelope = signed(entry, key.privateKey)
                const r = validateGradingEntry({ entry, envelope, trustedKeys: [key.publicKey], expect: { source } })
                expect(r.errors.filter((i) => i.severity === 'error')).toEqual([])
                expect(r.valid && r.provenance.graderKeyId).toBe('prop')
            }),
            { numRuns: 25 }
        )
    })

    it('any byte change of a signed entry fails the check', () => {
        let checked = 0
        fc.assert(
            fc.property(honest, fc.nat(), fc.integer({ min: 1, max: 255 }), ({ source, scores }, at, flip) => {
                const entry = honestFor(source, scores)
                const envelope = signed(entry, key.privateKey)
                const bytes = Buffer.from(canonicalBytes(entry))
                const i = at % bytes.length
                bytes[i] = (bytes[i] as number) ^ flip
                let changed: unknown
                try {
                    changed = JSON.parse(bytes.toString('utf8'))
                } catch {
                    return // no longer JSON: nothing to submit as an entry
                }
                const r = validateGradingEntry({ entry: changed, envelope, trustedKeys: [key.publicKey] })
                expect(r.valid).toBe(false)
                checked++
            }),
            { numRuns: 150 }
        )
        // Most flips land inside a string or a number and leave JSON: the property is exercised, not skipped.
        expect(checked).toBeGreaterThan(50)
    })

    it('a changed byte of the signature or the payload fails too (ATT-002, ATT-003)', () => {
        fc.assert(
            fc.property(honest, fc.nat(), ({ source, scores }, at) => {
                const entry = honestFor(source, scores)
                const envelope = signed(entry, key.privateKey)
                const sig = Buffer.from(envelope.signatures[0]?.sig as string, 'base64')
                sig[at % 64] = (sig[at % 64] as number) ^ 1
                const badSig = { ...envelope, signatures: [{ keyid: 'prop', sig: sig.toString('base64') }] }
                expect(
                    errorCodes(validateGradingEntry({ entry, envelope: badSig, trustedKeys: [key.publicKey] }).errors)
                ).toEqual(['ATT-003'])
            }),
            { numRuns: 30 }
        )
    })

    it('a deterministic answer changed from its recomputed value is rejected (RCK-001)', () => {
        const scores: ReadonlyArray<string | number> = ['pass', 'fail', 1, 2, 3, 4, 5]
        fc.assert(
            fc.property(honest, fc.nat(), fc.constantFrom(...scores), ({ source, scores: s }, pick, score) => {
                const entry = honestFor(source, s)
                const det = entry.gradings
                    .map((g, i) => [g, i] as const)
                    .filter(([g]) => g.determinism === 'deterministic')
                const [answer, index] = det[pick % det.length] as (typeof det)[number]
                fc.pre(answer.score !== score)
                const changed = {
                    ...entry,
                    gradings: entry.gradings.map((g, i) => (i === index ? { ...g, score } : g))
                }
                const r = validateGradingEntry({ entry: changed, expect: { source } })
                expect(r.errors.map((e) => e.code)).toContain('RCK-001')
            }),
            { numRuns: 60 }
        )
    })
})

describe('RFC 8037 keys', () => {
    it('reads the Ed25519 key of RFC 8037 Appendix A.1 (its x is the public key of its d) and signs with it', () => {
        const d = 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A'
        const x = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo'
        const entry = catalogueEntry('single-test')
        const signed = Grading.sign({ entry, privateKey: { kty: 'OKP', crv: 'Ed25519', d, x } })
        // RFC 8037 A.3: the key's RFC 7638 thumbprint.
        expect(signed.keyId).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k')
        const r = validateGradingEntry({
            entry,
            envelope: signed.envelope,
            trustedKeys: [{ kty: 'OKP', crv: 'Ed25519', x }]
        })
        expect(r.valid).toBe(true)
        const wrongX = Grading.sign({ entry, privateKey: { kty: 'OKP', crv: 'Ed25519', d, x: x.replace('1', '2') } })
        expect(errorCodes(wrongX.errors)).toEqual(['ATT-001'])
    })
})
