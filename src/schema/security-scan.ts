import * as v from 'valibot'
import { createIssue } from '../errors/issue.js'
import { parseArgs, says, type ArgCodes } from '../validation/args.js'
import type { Issue } from '../errors/types.js'
import { lex, lineIndex, type LexedString } from './lexer.js'
import { rx } from '../model/regex.js'
import { guardStatics } from '../errors/guard.js'

/** Codes of the static security patterns (05 §2.4 SEC001–SEC014, plus key hygiene 02 §13). */
export type SecurityCode =
    | 'SEC-001'
    | 'SEC-002'
    | 'SEC-003'
    | 'SEC-004'
    | 'SEC-005'
    | 'SEC-006'
    | 'SEC-007'
    | 'SEC-008'
    | 'SEC-009'
    | 'SEC-010'
    | 'SEC-011'
    | 'SEC-012'
    | 'SEC-013'
    | 'SEC-014'
    | 'SEC-015'
    | 'SEC-016'

/**
 * What a finding is evidence for. `malicious-module`: dynamic code execution or a shell, which no
 * schema needs for its stated purpose (01-model §6.1) — the finding is veto evidence. `null`: a
 * finding that lowers the `Q-security` answer but does not veto by itself (02 §13: a plain import
 * is a finding; touching the `process` or `fs` objects is not yet behaviour outside the stated purpose).
 */
export type VetoClass = 'malicious-module' | null

/** One match, with its 1-based position in the source. */
export interface SecurityFinding {
    readonly code: SecurityCode
    readonly label: string
    readonly line: number
    readonly column: number
    readonly vetoClass: VetoClass
    /** Module specifier of an import/require/re-export, when it is a string literal. */
    readonly module?: string
    /** SEC-016 only: a server param, key or token is mentioned within two lines of the writer. */
    readonly nearServerParam?: boolean
}

/** One external module the source loads (02 §13: the scanner lists every module into evidence). */
export interface ModuleReference {
    readonly name: string
    readonly source: 'node' | 'npm' | 'file' | 'url'
    /** Versions are not declared in schema sources; always `null` here. */
    readonly version: null
    readonly line: number
}

/** Result of {@link scanSource}. */
export interface SecurityScanResult {
    /** `true` when there is no finding at all. */
    readonly clean: boolean
    readonly findings: SecurityFinding[]
    readonly modules: ModuleReference[]
    readonly errors: Issue[]
}

interface CodePattern {
    readonly code: SecurityCode
    readonly label: string
    readonly regex: RegExp
    readonly vetoClass: VetoClass
}

/** The code patterns, searched in the blanked code. Word-bounded so `myeval(` or `reprocess` members do not match. */
export const CODE_PATTERNS: readonly CodePattern[] = Object.freeze([
    { code: 'SEC-001', label: 'import', regex: /(?<![\w$.])import(?![\w$])/g, vetoClass: null },
    {
        code: 'SEC-001',
        label: 'export … from (re-export)',
        regex: /(?<![\w$.])export\s*(?:\*(?:\s*as\s+[\w$]+)?|\{[^{}]*\})\s*from\s*(?=['"])/g,
        vetoClass: null
    },
    { code: 'SEC-002', label: 'require(', regex: /(?<![\w$.])require\s*\(/g, vetoClass: null },
    { code: 'SEC-003', label: 'eval', regex: /(?<![\w$.])eval(?![\w$])(?!\s*:)/g, vetoClass: 'malicious-module' },
    {
        code: 'SEC-004',
        label: 'Function(',
        regex: /(?<![\w$.]|new\s{1,20})Function\s*\(/g,
        vetoClass: 'malicious-module'
    },
    {
        code: 'SEC-004',
        label: '.constructor( (Function constructor)',
        regex: /\.\s*constructor\s*\(/g,
        vetoClass: 'malicious-module'
    },
    {
        code: 'SEC-005',
        label: 'new Function',
        regex: /(?<![\w$.])new\s+Function(?![\w$])/g,
        vetoClass: 'malicious-module'
    },
    { code: 'SEC-006', label: 'process', regex: /(?<![\w$.])process\s*[.[]/g, vetoClass: null },
    {
        code: 'SEC-007',
        label: 'child_process',
        regex: /(?<![\w$])child_process(?![\w$])/g,
        vetoClass: 'malicious-module'
    },
    { code: 'SEC-008', label: 'fs.', regex: /(?<![\w$.])fs\s*\./g, vetoClass: null },
    { code: 'SEC-011', label: 'globalThis', regex: /(?<![\w$.])globalThis\s*[.[]/g, vetoClass: null },
    { code: 'SEC-012', label: 'global', regex: /(?<![\w$.])global\s*[.[]/g, vetoClass: null },
    { code: 'SEC-013', label: '__dirname', regex: /(?<![\w$])__dirname(?![\w$])/g, vetoClass: null },
    { code: 'SEC-014', label: '__filename', regex: /(?<![\w$])__filename(?![\w$])/g, vetoClass: null }
])

/**
 * A word every match of a code pattern holds, by label: where the code lacks it, the pattern is not
 * run (most sources hold none of them). A pattern without a word here is always run.
 */
export const REQUIRED_WORDS: Readonly<Record<string, string>> = Object.freeze({
    import: 'import',
    'export … from (re-export)': 'export',
    'require(': 'require',
    eval: 'eval',
    'Function(': 'Function',
    '.constructor( (Function constructor)': 'constructor',
    'new Function': 'Function',
    process: 'process',
    child_process: 'child_process',
    'fs.': 'fs',
    globalThis: 'globalThis',
    global: 'global',
    __dirname: '__dirname',
    __filename: '__filename'
})

const NODE_BUILTINS = new Set([
    'assert',
    'async_hooks',
    'buffer',
    'child_process',
    'cluster',
    'console',
    'constants',
    'crypto',
    'dgram',
    'diagnostics_channel',
    'dns',
    'domain',
    'events',
    'fs',
    'fs/promises',
    'http',
    'http2',
    'https',
    'inspector',
    'module',
    'net',
    'os',
    'path',
    'perf_hooks',
    'process',
    'punycode',
    'querystring',
    'readline',
    'repl',
    'stream',
    'string_decoder',
    'sys',
    'timers',
    'tls',
    'trace_events',
    'tty',
    'url',
    'util',
    'v8',
    'vm',
    'wasi',
    'worker_threads',
    'zlib'
])

/** Modules whose import is itself veto evidence: shell and code-loading built-ins. */
const EXECUTION_MODULES = new Set(['child_process', 'vm', 'worker_threads', 'cluster'])

const WRITER = rx(
    'g'
)`(?<![\w$.])(?:console\s*\.\s*(?:log|info|warn|error|debug|trace|dir|dirxml|table|group|groupCollapsed|
        assert|count|timeLog)|process\s*\.\s*(?:stdout|stderr)\s*\.\s*write)(?![\w$])`
const SECRET_WORDS = rx(
    'i'
)`SERVER_PARAM|serverParams|api[_-]?key|apikey|access[_-]?key|secret|token|password|bearer|authorization|
        \bstruct\b|\bheaders\b`

/** Known credential prefixes (provider-issued key formats). */
const KEY_PREFIXES = rx('g')`(?<![A-Za-z0-9])(?:sk-[A-Za-z0-9_-]{16,}|sk_(?:live|test)_[A-Za-z0-9]{10,}|
        pk_(?:live|test)_[A-Za-z0-9]{10,}|ghp_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|xox[abpr]-[A-Za-z0-9-]{10,}|
        AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35})(?![A-Za-z0-9])`
/** `apikey=…`, `token: …`, `X_API_KEY = '…'` and `?api_key=…` inside comment text. */
const KEY_ASSIGNMENT = rx(
    'gi'
)`\b((?:[A-Za-z_][A-Za-z0-9_-]*)?(?:key|token|secret|password|passwd|auth)[A-Za-z0-9_]*)\s*[:=]\s*['"]?
        ([^\s'"&,;)]{8,})`
const PLACEHOLDER_VALUE = rx(
    ''
)`^(?:<.*>|\{\{.*\}\}|\$\{.*\}|x{3,}.*|\*{3,}.*|\.{3,}.*|your[_-].*|YOUR[_-].*|process\.env.*|example.*|
        EXAMPLE.*|dummy.*|placeholder.*|changeme.*|null|undefined|true|false|string|'.*)$`

/** At most this many findings are listed; past it the scan stops listing and says so (SEC-WARN-001). */
export const MAX_FINDINGS = 1000

/** Maximum source length scanned (characters); longer input is refused with SEC-018. */
export const MAX_SOURCE_LENGTH = 2_000_000

function moduleSource(name: string): ModuleReference['source'] {
    const bare = name.replace(/^node:/, '')
    if (name.startsWith('node:') || NODE_BUILTINS.has(bare) || NODE_BUILTINS.has(bare.split('/')[0] ?? bare))
        return 'node'
    if (/^https?:\/\//i.test(name) || name.startsWith('data:')) return 'url'
    if (name.startsWith('.') || name.startsWith('/') || name.startsWith('file:')) return 'file'
    return 'npm'
}

function escapeRegex(text: string): string {
    return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Finds the string literal that is the specifier of an import/require/re-export found at `index`. */
function specifierAfter(
    code: string,
    strings: readonly LexedString[],
    index: number,
    label: string
): LexedString | null {
    // `strings` is in source order: binary search for the first literal after `index`.
    let lo = 0
    let hi = strings.length
    while (lo < hi) {
        const mid = (lo + hi) >> 1
        if ((strings[mid] as LexedString).start > index) hi = mid
        else lo = mid + 1
    }
    while (lo < strings.length && (strings[lo] as LexedString).template) lo += 1
    const literal = strings[lo]
    if (literal === undefined) return null
    const between = code.slice(index, literal.start - 1)
    if (label === 'require(') return /^require\s*\(\s*$/.test(between) ? literal : null
    if (label === 'import') {
        if (/^import\s*\(\s*$/.test(between)) return literal
        if (/^import\s*$/.test(between)) return literal
        return /^import(?![\w$])[^;()]*?(?<![\w$.])from\s*$/.test(between) ? literal : null
    }
    return /from\s*$/.test(between) ? literal : null
}

// SEC-017 no source, SEC-019 a wrong type; a source too long (SEC-018) is the scan's own limit, checked after.
const ARGS: ArgCodes<'SEC-017' | 'SEC-019'> = { missing: 'SEC-017', mismatch: 'SEC-019', create: createIssue }
const KEY_STYLE = { field: 'key', actual: 'type' } as const
const SOURCE = v.object({ source: v.string(says({ expected: 'string', actual: 'type' })) })
// The names are filtered to non-empty strings where they are used: only the list itself is checked.
const SERVER_PARAMS = v.object({
    requiredServerParams: v.optional(v.array(v.unknown(), says({ expected: 'array of strings', actual: 'type' })))
})

/**
 * Scans the text of a schema module (05 §2.4) for forbidden patterns and API-key hygiene
 * problems (02 §13 (1), (2)). Pure; the source is never executed.
 */
export function scanSource(source: unknown, requiredServerParams: unknown): SecurityScanResult {
    const given = parseArgs(SOURCE, { source }, ARGS, KEY_STYLE)
    if (given.value === null) return { clean: false, findings: [], modules: [], errors: given.errors }
    const text = given.value.source
    if (text.length > MAX_SOURCE_LENGTH) {
        return {
            clean: false,
            findings: [],
            modules: [],
            errors: [createIssue('SEC-018', '/source', { length: text.length, limit: MAX_SOURCE_LENGTH })]
        }
    }
    const params = Array.isArray(requiredServerParams)
        ? requiredServerParams.filter((p): p is string => typeof p === 'string' && p.length > 0)
        : []
    const errors = parseArgs(SERVER_PARAMS, { requiredServerParams }, ARGS, KEY_STYLE).errors
    const scan = newSourceScan(text, params)
    scanCodePatterns(scan)
    scanStringLiterals(scan)
    scanWriters(scan)
    scanComments(scan)
    const unique = orderedUniqueFindings(scan.findings)
    if (scan.truncated) errors.push(createIssue('SEC-WARN-001', '/source', { limit: MAX_FINDINGS }))
    return { clean: unique.length === 0, findings: unique, modules: scan.modules, errors }
}

/** One source under scan: its lexed parts and what the stages have found. */
interface SourceScan {
    readonly source: string
    readonly params: readonly string[]
    readonly code: string
    readonly strings: readonly LexedString[]
    readonly comments: ReturnType<typeof lex>['comments']
    readonly findings: Array<SecurityFinding & { index: number }>
    readonly modules: ModuleReference[]
    truncated: boolean
    readonly where: (at: number) => { line: number; column: number }
    readonly add: (finding: Omit<SecurityFinding, 'line' | 'column'>, index: number) => void
}

function newSourceScan(source: string, params: readonly string[]): SourceScan {
    const { code, strings, comments } = lex(source)
    // Line starts are only needed for a finding, and most sources have none.
    let index: ((at: number) => { line: number; column: number }) | null = null
    // biome-ignore lint/suspicious/noAssignInExpressions: the line index is built on first use, then kept
    const where = (at: number): { line: number; column: number } => (index ??= lineIndex(source))(at)
    const scan: SourceScan = {
        source,
        params,
        code,
        strings,
        comments,
        findings: [],
        modules: [],
        truncated: false,
        where,
        add: (finding, at) => {
            if (scan.findings.length >= MAX_FINDINGS) {
                scan.truncated = true
                return
            }
            const { line, column } = where(at)
            scan.findings.push({ ...finding, line, column, index: at })
        }
    }
    return scan
}

/** Forbidden code patterns; an import or require records the module it names. */
function scanCodePatterns(scan: SourceScan): void {
    const { code, strings, add, where } = scan
    for (const pattern of CODE_PATTERNS) {
        if (!code.includes(REQUIRED_WORDS[pattern.label] ?? '')) continue
        for (const match of code.matchAll(pattern.regex)) {
            if (scan.truncated) break
            const index = match.index
            const spec =
                pattern.code === 'SEC-001' || pattern.code === 'SEC-002'
                    ? specifierAfter(code, strings, index, pattern.label)
                    : null
            if (spec !== null) {
                const name = spec.raw
                const { line } = where(index)
                scan.modules.push({ name, source: moduleSource(name), version: null, line })
                const bare = name.replace(/^node:/, '')
                const executes = EXECUTION_MODULES.has(bare.split('/')[0] ?? bare)
                add(
                    {
                        code: pattern.code,
                        label: pattern.label,
                        vetoClass: executes ? 'malicious-module' : pattern.vetoClass,
                        module: name
                    },
                    index
                )
            } else {
                add({ code: pattern.code, label: pattern.label, vetoClass: pattern.vetoClass }, index)
            }
        }
    }
}

/**
 * Module names hidden in string literals: a required child_process, a dynamically imported node:fs, a computed
 * fs/promises.
 */
function scanStringLiterals(scan: SourceScan): void {
    const { code, add } = scan
    const importedFs = scan.findings.some((f) => f.module === 'fs')
    for (const literal of scan.strings) {
        const text = literal.raw
        // Only a whole-string module name counts: a description that mentions child_process is prose.
        const spec = text.trim()
        // Every name looked for is at most 18 characters ('node:child_process'): longer literals are prose.
        if (spec.length > 18) continue
        if (/^(?:node:)?child_process$/.test(spec))
            add({ code: 'SEC-007', label: 'child_process', vetoClass: 'malicious-module' }, literal.start)
        if (/^node:fs(?:\/promises)?$/.test(spec))
            add({ code: 'SEC-009', label: 'node:fs', vetoClass: null }, literal.start)
        if (/^(?:node:)?fs\/promises$/.test(spec))
            add({ code: 'SEC-010', label: 'fs/promises', vetoClass: null }, literal.start)
        if (text === 'fs' && importedFs) add({ code: 'SEC-008', label: "module 'fs'", vetoClass: null }, literal.start)
        if (
            /^(?:eval|Function|constructor)$/.test(text) &&
            /\[\s*$/.test(code.slice(Math.max(0, literal.start - 40), literal.start - 1))
        ) {
            add(
                {
                    code: 'SEC-004',
                    label: `['${text}'] (code execution by computed access)`,
                    vetoClass: 'malicious-module'
                },
                literal.start
            )
        }
    }
}

/** 02 §13 (1): stdout/stderr writers; flagged harder when a key or server param is mentioned nearby. */
function scanWriters(scan: SourceScan): void {
    const { code, source, params } = scan
    let split: string[] | null = null
    const mentionsSecret = (line: number): boolean => {
        // biome-ignore lint/suspicious/noAssignInExpressions: split on first use, then kept
        const lines = (split ??= source.split(/\r\n|\r|\n|\u2028|\u2029/))
        for (let l = Math.max(1, line - 2); l <= Math.min(lines.length, line + 2); l += 1) {
            const text = lines[l - 1] ?? ''
            if (SECRET_WORDS.test(text) || params.some((p) => text.includes(p))) return true
        }
        return false
    }
    for (const match of code.includes('console') || code.includes('process') ? code.matchAll(WRITER) : []) {
        const { line } = scan.where(match.index)
        scan.add(
            {
                code: 'SEC-016',
                label: match[0].replace(/\s+/g, ''),
                vetoClass: null,
                nearServerParam: mentionsSecret(line)
            },
            match.index
        )
    }
}

/** 02 §13 (2): key-like literals in comments (examples, TODOs, debug leftovers count). */
function scanComments(scan: SourceScan): void {
    for (const comment of scan.comments) {
        const hits: number[] = []
        for (const m of comment.text.matchAll(KEY_PREFIXES)) hits.push(m.index)
        for (const m of comment.text.matchAll(KEY_ASSIGNMENT)) {
            const value = m[2] as string
            if (!PLACEHOLDER_VALUE.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value)) hits.push(m.index)
        }
        for (const p of scan.params) {
            const re = rx('g')`(?<![A-Za-z0-9_])${escapeRegex(p)}\s*[:=]\s*['"]?([^\s'"&,;)]{6,})`
            for (const m of comment.text.matchAll(re)) {
                if (!PLACEHOLDER_VALUE.test(m[1] as string)) hits.push(m.index)
            }
        }
        const first = hits.length > 0 ? Math.min(...hits) : -1
        if (first !== -1)
            scan.add(
                { code: 'SEC-015', label: 'key-like literal in a comment', vetoClass: null },
                comment.start + first
            )
    }
}

/** Findings in source order, one per code and place. */
function orderedUniqueFindings(findings: Array<SecurityFinding & { index: number }>): SecurityFinding[] {
    const seen = new Set<string>()
    return findings
        .sort((a, b) => a.index - b.index || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
        .filter((f) => {
            const key = `${f.code}@${f.index}`
            if (seen.has(key)) return false
            seen.add(key)
            return true
        })
        .map(({ index: _index, ...f }) => f)
}

/**
 * Static security scan of a schema module's source text (05 §2.4, 02 §13). Comments, string
 * contents, template text and regex literals are blanked first (code inside `${…}` stays
 * visible), so only code matches; module names are also looked for inside string literals.
 */
class SecurityScanUnguarded {
    private constructor() {}

    /**
     * Scans one source text. Findings are evidence for the `malicious-module` veto when
     * `vetoClass` is `'malicious-module'` (eval, Function constructor, child_process and other
     * code-execution modules); every other finding only lowers `Q-security`.
     * @param input - `{ source, requiredServerParams? }` (the names help spot keys in comments and writers near keys)
     * @returns `{ clean, findings: [{ code, label, line, column, vetoClass, module?, nearServerParam? }], modules,
     *   errors }`; findings SEC-001…SEC-016; SEC-017 no source, SEC-018 source too long, SEC-019 wrong type,
     *   SEC-WARN-001 findings list cut at 1000.
     * @example SecurityScan.scan({ source: 'export const main = {}' }).clean // true
     */
    static scan(input: { source?: unknown; requiredServerParams?: unknown }): SecurityScanResult {
        const args = (input ?? {}) as { source?: unknown; requiredServerParams?: unknown }
        return scanSource(args.source, args.requiredServerParams)
    }
}

/**
 * The public SecurityScan: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const SecurityScan = /* @__PURE__ */ guardStatics(SecurityScanUnguarded, 'SecurityScan')
