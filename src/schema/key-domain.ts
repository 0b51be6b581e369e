import { parse } from 'tldts'
import * as v from 'valibot'
import { createIssue, describeValue } from '../errors/issue.js'
import { pointer } from '../errors/pointer.js'
import type { Issue } from '../errors/types.js'
import { lookup } from '../json/own.js'
import { placeholderRootReason } from './root-host.js'
import { isRecord, own } from './shape.js'
import { parseUrl } from './url.js'
import { guardStatics } from '../errors/guard.js'
import { type ArgCodes, parseArgs, says } from '../validation/args.js'

// Absent: SEC-020; wrong type: SEC-019 (the value's type is written, never the value).
const CODES: ArgCodes<'SEC-019' | 'SEC-020'> = { missing: 'SEC-020', mismatch: 'SEC-019', create: createIssue }
/** The same codes for what stands inside `main`: its findings are reported under `/main`. */
const IN_MAIN: ArgCodes<'SEC-019' | 'SEC-020'> = {
    ...CODES,
    create: (code, path, params) => createIssue(code, `/main${path}`, params)
}
const STYLE = { actual: 'type' } as const
const MAIN = v.object({ main: v.custom<Record<string, unknown>>(isRecord, says('object')) })
const KEY_LIST = v.object({ requiredServerParams: v.optional(v.array(v.unknown(), says('array of strings'))) })
const KEY_NAME = v.custom<string>(
    (key) => typeof key === 'string' && key.length > 0,
    says({ expected: 'non-empty string', missing: false })
)
const URL_ARG = v.object({ url: v.string(says('string')) })
const TOS_ARGS = v.object({ apiRoot: v.string(says('string')), tosUrl: v.string(says('string')) })

/**
 * Tokens of a key name that say what kind of secret it is, not whose: they never count as a brand.
 * Changing this list changes veto outcomes, so it is versioned with the library (gradingSystem bump).
 */
export const GENERIC_KEY_TOKENS: readonly string[] = Object.freeze([
    'api',
    'apis',
    'key',
    'keys',
    'token',
    'tokens',
    'secret',
    'secrets',
    'access',
    'pro',
    'id',
    'ids',
    'client',
    'project',
    'app',
    'application',
    'auth',
    'oauth',
    'bearer',
    'private',
    'public',
    'user',
    'username',
    'password',
    'pass',
    'pwd',
    'account',
    'acct',
    'env',
    'server',
    'service',
    'svc',
    'url',
    'uri',
    'endpoint',
    'host',
    'base',
    'root',
    'dev',
    'developer',
    'prod',
    'production',
    'test',
    'sandbox',
    'live',
    'premium',
    'free',
    'plan',
    'tier',
    'rpc',
    'http',
    'https',
    'ws',
    'wss',
    'webhook',
    'signing',
    'sign',
    'signature',
    'consumer',
    'license',
    'licence',
    'subscription',
    'partner',
    'org',
    'organization',
    'team',
    'workspace',
    'session',
    'jwt',
    'hmac',
    'header',
    'my',
    'default',
    'main',
    'primary',
    'secondary',
    'read',
    'write',
    'only',
    'admin',
    'master',
    'global',
    'personal',
    'mainnet',
    'testnet',
    'network',
    'v1',
    'v2',
    'v3',
    'v4',
    'value',
    'code',
    'credential',
    'credentials',
    'cred',
    'creds',
    'pat',
    'sk',
    'pk',
    'iam',
    'gateway',
    'node',
    'rest',
    'graphql',
    // Descriptive words that name a subject, not a company (`CRYPTO_DATA_API_KEY` names no one).
    'data',
    'crypto',
    'weather',
    'news',
    'price',
    'prices',
    'market',
    'markets',
    'finance',
    'financial',
    'stock',
    'stocks',
    'chain',
    'blockchain',
    'geo',
    'map',
    'maps',
    'search',
    'ai',
    'llm',
    'chat',
    'email',
    'mail',
    'sms',
    'cloud',
    'storage',
    'analytics',
    'stats',
    'metrics',
    'index',
    'explorer',
    'scan',
    'wallet',
    'nft',
    'defi',
    'dex',
    'exchange',
    'trading',
    'oracle',
    'feed',
    'feeds',
    'info'
])

/** Host labels that carry no brand (`api.`, `www.`, `pro-api.`). */
export const GENERIC_HOST_LABELS: readonly string[] = Object.freeze([
    'api',
    'apis',
    'www',
    'pro',
    'rest',
    'gateway',
    'app',
    'public',
    'service',
    'services',
    'dev',
    'developer',
    'developers',
    'sandbox',
    'prod',
    'beta',
    'cdn',
    'edge',
    'rpc',
    'v1',
    'v2',
    'v3'
])

/** Renamed or multi-name companies: a brand token also matches these labels. Kept short and explicit. */
export const BRAND_ALIASES: Readonly<Record<string, readonly string[]>> = Object.freeze({
    twitter: Object.freeze(['x']),
    x: Object.freeze(['twitter']),
    facebook: Object.freeze(['meta', 'fb']),
    fb: Object.freeze(['facebook', 'meta']),
    meta: Object.freeze(['facebook', 'fb'])
})

/**
 * Documented key gateways: one key, issued by the gateway, for many hosts of other operators. A key
 * whose name carries the gateway's tokens (in order) matches every host the gateway serves. Each row
 * names where the fact comes from; changing the table changes veto outcomes (gradingSystem bump).
 */
export const KEY_GATEWAYS: ReadonlyArray<{
    readonly gateway: string
    readonly keyTokens: readonly string[]
    readonly hosts: readonly RegExp[]
    readonly source: string
}> = Object.freeze([
    Object.freeze({
        gateway: 'api.data.gov',
        keyTokens: Object.freeze(['data', 'gov']),
        // US federal hosts (.gov, .mil) and the Smithsonian (si.edu), whose APIs take api.data.gov keys.
        hosts: Object.freeze([/(?:^|\.)[a-z0-9-]+\.gov$/, /(?:^|\.)[a-z0-9-]+\.mil$/, /(?:^|\.)si\.edu$/]),
        source: 'https://api.data.gov/ (key sign-up and the list of agencies that accept its keys)'
    })
])

/** Minimum length of the shorter side for a containment match, and of a brand that can cause a mismatch. */
export const MIN_BRAND_LENGTH = 3

/**
 * How a key name related to the API. Only `mismatch` vetoes; `uncertain` (a brand that matches
 * nothing while the root names no callable host) is a warning left to the grader's question.
 */
export type KeyVerdict = 'match' | 'mismatch' | 'uncertain' | 'no-brand' | 'unrecognised'
/** Which rule produced a match. */
export type MatchRule = 'equal' | 'containment' | 'concatenation' | 'initialism' | 'alias' | 'gateway'

/** One `requiredServerParams` entry, as judged. */
export interface KeyCheck {
    readonly param: string
    /** JSON Pointer of the entry in `main`. */
    readonly pointer: string
    /** Lower-case tokens of the key name. */
    readonly tokens: string[]
    /** The tokens left after dropping generic ones, joined by `-`; `null` when none is left. */
    readonly brand: string | null
    readonly verdict: KeyVerdict
    readonly rule: MatchRule | null
    /** The host label or namespace part the brand matched. */
    readonly matched: string | null
}

/** A key that names another company or domain than the API: veto evidence (`api-key-domain-mismatch`). */
export interface KeyMismatch {
    readonly param: string
    readonly brand: string
    readonly apiHost: string
    readonly pointer: string
}

/** A key the check could not judge with certainty; it goes to the grader's question instead of a veto. */
export interface KeyUncertain {
    readonly param: string
    readonly brand: string
    readonly pointer: string
    readonly reason: string
}

/** Result of {@link checkKeyDomains}. */
export interface KeyDomainResult {
    readonly mismatches: KeyMismatch[]
    /** Keys left to the grader: no veto, a SEC-WARN-002 warning in `errors`. */
    readonly uncertain: KeyUncertain[]
    readonly checked: KeyCheck[]
    /** The API host the keys were compared with (`null` when `main.root` gives none). */
    readonly apiHost: string | null
    /** Registrable domain (eTLD+1) of the API host. */
    readonly apiDomain: string | null
    readonly errors: Issue[]
}

/** `CMC_PRO_API_KEY` → `['cmc','pro','api','key']`; `coinGeckoKey` → `['coin','gecko','key']`. */
export function tokenizeKey(name: string): string[] {
    return name
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .split(/[^A-Za-z0-9]+/)
        .map((t) => t.toLowerCase())
        .filter((t) => t.length > 0)
}

function isSubsequence(short: string, long: string): boolean {
    let k = 0
    for (const ch of long) {
        if (ch === short[k]) k += 1
        if (k === short.length) return true
    }
    return k === short.length
}

/** Host name of a URL or bare host, lower-case; `null` when none can be read. */
export function hostOf(url: string): string | null {
    const text = url.trim()
    if (text === '') return null
    const parts = parseUrl(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`)
    return parts === null || parts.host === '' ? null : parts.host
}

/**
 * eTLD+1 of a URL or host, by the Public Suffix List (private suffixes included, so
 * `alice.github.io` and `bob.github.io` are different sites); `null` for IPs, bare suffixes and
 * unparseable input (02 ⚠ B17).
 */
export function registrableDomainOf(url: string): string | null {
    const host = hostOf(url)
    if (host === null) return null
    const result = parse(host, { allowPrivateDomains: true })
    return result.isIp === true ? null : (result.domain ?? null)
}

/**
 * The brand-bearing labels of a host: every label but the ICANN public suffix, each also split at
 * `-`. Private suffixes are kept as labels on purpose: in `maps.googleapis.com` the brand sits in
 * `googleapis`, which the private section of the list treats as a suffix.
 */
export function hostLabels(host: string): string[] {
    const result = parse(host)
    if (result.isIp === true) return []
    const parts = [...(result.subdomain ?? '').split('.'), result.domainWithoutSuffix ?? '']
        .filter((l) => l.length > 0)
        .flatMap((l) => (l.includes('-') ? [l, ...l.split('-')] : [l]))
    return [...new Set(parts.filter((l) => l.length > 0 && !GENERIC_HOST_LABELS.includes(l)))]
}

function matchBrand(
    brandTokens: readonly string[],
    labels: readonly string[]
): { rule: MatchRule; matched: string } | null {
    const concat = brandTokens.join('')
    const contains = (a: string, b: string): boolean => {
        const [short, long] = a.length <= b.length ? [a, b] : [b, a]
        return short.length >= MIN_BRAND_LENGTH && long.includes(short)
    }
    for (const label of labels) {
        const flat = label.replace(/-/g, '')
        if (brandTokens.includes(label) || concat === flat)
            return { rule: brandTokens.length > 1 && concat === flat ? 'concatenation' : 'equal', matched: label }
    }
    for (const label of labels) {
        const flat = label.replace(/-/g, '')
        if (brandTokens.length > 1 && contains(concat, flat)) return { rule: 'concatenation', matched: label }
        if (brandTokens.some((t) => contains(t, flat))) return { rule: 'containment', matched: label }
    }
    for (const token of brandTokens) {
        const aliases = lookup(BRAND_ALIASES, token) ?? []
        const hit = labels.find((l) => aliases.includes(l))
        if (hit !== undefined) return { rule: 'alias', matched: hit }
    }
    // Initialisms: CMC ↔ coinmarketcap, BSC ↔ binancesmartchain (first letter equal, 2–5 letters, in order).
    for (const candidate of [concat, ...brandTokens]) {
        if (candidate.length < 2 || candidate.length > 5 || !/^[a-z]+$/.test(candidate)) continue
        for (const label of labels) {
            const flat = label.replace(/-/g, '')
            if (flat.length > candidate.length && flat[0] === candidate[0] && isSubsequence(candidate, flat))
                return { rule: 'initialism', matched: label }
        }
    }
    return null
}

function gatewayOf(tokens: readonly string[], host: string | null): string | null {
    if (host === null) return null
    for (const row of KEY_GATEWAYS) {
        const at = tokens.findIndex((_, i) => row.keyTokens.every((t, k) => tokens[i + k] === t))
        if (at >= 0 && row.hosts.some((h) => h.test(host))) return row.gateway
    }
    return null
}

/** Judges one key name against the API's host labels and namespace parts (and the key gateways serving `host`). */
export function judgeKey(
    param: string,
    labels: readonly string[],
    host: string | null = null
): Omit<KeyCheck, 'pointer'> {
    const tokens = tokenizeKey(param)
    const gateway = gatewayOf(tokens, host)
    if (gateway !== null) return { param, tokens, brand: gateway, verdict: 'match', rule: 'gateway', matched: gateway }
    const brandTokens = tokens.filter((t) => !GENERIC_KEY_TOKENS.includes(t) && !/^\d+$/.test(t))
    if (brandTokens.length === 0) {
        return { param, tokens, brand: null, verdict: 'no-brand', rule: null, matched: null }
    }
    const brand = brandTokens.join('-')
    const hit = matchBrand(brandTokens, labels)
    if (hit !== null) {
        return { param, tokens, brand, verdict: 'match', rule: hit.rule, matched: hit.matched }
    }
    // A veto needs evidence: short leftovers (`X_`, `FT_`) that match nothing are not read as a company.
    const evidence = brandTokens.some((t) => t.length >= MIN_BRAND_LENGTH)
    return { param, tokens, brand, verdict: evidence ? 'mismatch' : 'unrecognised', rule: null, matched: null }
}

/** What every key is judged against: the root as written, its host, the brand labels, a placeholder root's reason. */
interface KeyScope {
    readonly root: unknown
    readonly apiHost: string | null
    readonly labels: readonly string[]
    readonly placeholder: string | null
}

/** The labels a key's brand may match: the root host's, then the namespace's parts without generic ones, each once. */
function brandLabels(apiHost: string | null, namespace: unknown): string[] {
    const namespaceParts =
        typeof namespace === 'string'
            ? [namespace, ...namespace.split(/[^a-z0-9]+/i)].map((p) => p.toLowerCase()).filter((p) => p.length > 0)
            : []
    const hostParts = apiHost === null ? [] : hostLabels(apiHost)
    return [...new Set([...hostParts, ...namespaceParts.filter((p) => !GENERIC_HOST_LABELS.includes(p))])]
}

/** Each key in order: SEC-019 when malformed; a mismatch the root cannot confirm is uncertain (SEC-WARN-002). */
function judgeKeys(
    params: readonly unknown[],
    scope: KeyScope,
    errors: Issue[]
): Pick<KeyDomainResult, 'checked' | 'mismatches' | 'uncertain'> {
    const { root, apiHost, placeholder } = scope
    const checked: KeyCheck[] = []
    const mismatches: KeyMismatch[] = []
    const uncertain: KeyUncertain[] = []
    params.forEach((given, i) => {
        const at = pointer('requiredServerParams', i)
        const item = parseArgs(KEY_NAME, given, IN_MAIN, {
            ...STYLE,
            field: 'indexed',
            at: ['requiredServerParams', i]
        })
        if (item.value === null) {
            errors.push(...item.errors)
            return
        }
        if (apiHost === null && placeholder === null) return
        const param = item.value
        const judged = judgeKey(param, scope.labels, apiHost)
        if (judged.verdict === 'mismatch' && judged.brand !== null && (placeholder !== null || apiHost === null)) {
            const reason = `root ${describeValue(root)}: ${placeholder ?? 'names no host'}`
            checked.push({ ...judged, verdict: 'uncertain', pointer: at })
            uncertain.push({ param, brand: judged.brand, pointer: at, reason })
            errors.push(createIssue('SEC-WARN-002', `/main${at}`, { param, brand: judged.brand, reason }))
            return
        }
        checked.push({ ...judged, pointer: at })
        if (judged.verdict === 'mismatch' && judged.brand !== null && apiHost !== null)
            mismatches.push({ param, brand: judged.brand, apiHost, pointer: at })
    })
    return { checked, mismatches, uncertain }
}

/**
 * Compares every `requiredServerParams` key name with the API's root host and namespace
 * (02 §13 (3), 01-model §6.1 `api-key-domain-mismatch`). See docs/schema-checks.md for the rule.
 */
export function checkKeyDomains(main: unknown): KeyDomainResult {
    const given = parseArgs(MAIN, { main }, CODES, STYLE)
    if (given.value === null) {
        return { mismatches: [], uncertain: [], checked: [], apiHost: null, apiDomain: null, errors: given.errors }
    }
    const errors: Issue[] = []
    const list = own(main, 'requiredServerParams')
    const params = Array.isArray(list) ? list : []
    // The list as a whole here; each key where it is judged, so its finding keeps its place among the warnings.
    errors.push(...parseArgs(KEY_LIST, { requiredServerParams: list }, IN_MAIN, STYLE).errors)
    const root = own(main, 'root')
    const apiHost = typeof root === 'string' ? hostOf(root) : null
    if (apiHost === null && params.length > 0 && placeholderRootReason(root) === null) {
        errors.push(createIssue('SEC-021', '/main/root', { value: describeValue(root) }))
    }
    const labels = brandLabels(apiHost, own(main, 'namespace'))
    // A root the runtime cannot call as written: the schema's handlers pick the host, so a brand is no evidence.
    const placeholder = placeholderRootReason(root)
    const { checked, mismatches, uncertain } = judgeKeys(params, { root, apiHost, labels, placeholder }, errors)
    return {
        mismatches,
        uncertain,
        checked,
        apiHost,
        apiDomain: apiHost === null ? null : registrableDomainOf(apiHost),
        errors
    }
}

/** Result of {@link Tos.rootDomainMatch}. */
export interface TosMatch {
    /** `true` only when both registrable domains are known and equal. */
    readonly match: boolean
    readonly apiDomain: string | null
    readonly tosDomain: string | null
    /**
     * Why there is no match: `no-tos-found`, `unknown-api-domain`, `unknown-tos-domain`, `different-domain`; `null` on
     * a match.
     */
    readonly reason: 'no-tos-found' | 'unknown-api-domain' | 'unknown-tos-domain' | 'different-domain' | null
    readonly errors: Issue[]
}

/**
 * API-key domain checks (02 §13 (3)) and registrable-domain helpers. Deterministic and pure; the
 * Public Suffix List comes from the `tldts` package (02 ⚠ B17).
 */
class KeyDomainUnguarded {
    private constructor() {}

    /**
     * Finds `requiredServerParams` keys that name another company or domain than the API: the key
     * name is tokenised, generic tokens (API, KEY, TOKEN, SECRET, ACCESS, PRO, ID, CLIENT, …) are
     * dropped, and what is left (the brand) is compared with the root host's labels and the
     * namespace — equal, containment (≥ 3 characters), concatenated tokens, initialism
     * (`CMC` ↔ `coinmarketcap`) or a listed alias. A key without a brand is never a mismatch.
     * @param input - `{ main }`
     * @returns `{ mismatches: [{ param, brand, apiHost, pointer }], checked, apiHost, apiDomain, errors }`;
     *   SEC-020/SEC-019 for a missing or malformed `main`, SEC-021 when keys exist but `root` names no host.
     * @example
     * KeyDomain.check({ main: { root: 'https://api.example.xyz', requiredServerParams: ['FACEBOOK_API_KEY'] } })
     *     .mismatches[0]?.brand // 'facebook'
     */
    static check(input: { main?: unknown }): KeyDomainResult {
        return checkKeyDomains((input as { main?: unknown } | null | undefined)?.main)
    }

    /**
     * The registrable domain (eTLD+1) of a URL or host name, Public-Suffix-List aware
     * (`a.b.co.uk` → `b.co.uk`), private suffixes included (`alice.github.io` stays `alice.github.io`).
     * @param input - `{ url }`
     * @returns `{ domain, errors }`; SEC-020/SEC-019 for a missing or non-string url, SEC-022 when no domain can be
     *   derived.
     * @example KeyDomain.registrableDomain({ url: 'https://api.flowmcp.org/v1' }).domain // 'flowmcp.org'
     */
    static registrableDomain(input: { url?: unknown }): { domain: string | null; errors: Issue[] } {
        const checked = parseArgs(URL_ARG, { url: (input as { url?: unknown } | null | undefined)?.url }, CODES, STYLE)
        if (checked.value === null) return { domain: null, errors: checked.errors }
        const url = checked.value.url
        const domain = registrableDomainOf(url)
        return domain === null
            ? { domain, errors: [createIssue('SEC-022', '/url', { value: describeValue(url) })] }
            : { domain, errors: [] }
    }
}

/**
 * The public KeyDomain: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const KeyDomain = /* @__PURE__ */ guardStatics(KeyDomainUnguarded, 'KeyDomain')

/** Terms-of-service checks that need no network (02 §12). */
class TosUnguarded {
    private constructor() {}

    /**
     * The root-domain rule (02 §12, MUST): the ToS URL's registrable domain must equal the API's.
     * `api.flowmcp.org` + `flowmcp.org/terms` → match; `api.flowmcp.org` + `legal.flowmcp.org` →
     * match; `api.flowmcp.org` + `example.com/terms` → no match. `no-tos-found` is an answer, not an error.
     * @param input - `{ apiRoot, tosUrl }`
     * @returns `{ match, apiDomain, tosDomain, reason, errors }`; SEC-020/SEC-019 for missing or non-string arguments.
     * @example
     * Tos.rootDomainMatch({ apiRoot: 'https://api.flowmcp.org', tosUrl: 'https://flowmcp.org/terms' }).match // true
     */
    static rootDomainMatch(input: { apiRoot?: unknown; tosUrl?: unknown }): TosMatch {
        const args = (input ?? {}) as { apiRoot?: unknown; tosUrl?: unknown }
        // Read field by field: a string or an array given as the input reads as both fields absent.
        const { errors } = parseArgs(TOS_ARGS, { apiRoot: args.apiRoot, tosUrl: args.tosUrl }, CODES, STYLE)
        if (errors.length > 0) return { match: false, apiDomain: null, tosDomain: null, reason: null, errors }
        const apiDomain = registrableDomainOf(args.apiRoot as string)
        if ((args.tosUrl as string).trim() === 'no-tos-found')
            return { match: false, apiDomain, tosDomain: null, reason: 'no-tos-found', errors }
        const tosDomain = registrableDomainOf(args.tosUrl as string)
        if (apiDomain === null) return { match: false, apiDomain, tosDomain, reason: 'unknown-api-domain', errors }
        if (tosDomain === null) return { match: false, apiDomain, tosDomain, reason: 'unknown-tos-domain', errors }
        return apiDomain === tosDomain
            ? { match: true, apiDomain, tosDomain, reason: null, errors }
            : { match: false, apiDomain, tosDomain, reason: 'different-domain', errors }
    }
}

/**
 * The public Tos: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const Tos = /* @__PURE__ */ guardStatics(TosUnguarded, 'Tos')
