// Rebuild cost against its floor: for islands of 1k, 10k and 50k grading files in a real temp
// directory, time RebuildIndex.rebuildNamespaceIndex and, in the same run, the floor = reading and
// JSON.parse-ing every grading file once through the same port with the same concurrency.
//
//   npm run build && node --expose-gc bench/rebuild-index.bench.mjs [sizes…]
//
// Prints, per size: median times, the ratio rebuild/floor, time per file, and peak heap growth.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import * as fsp from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_READ_CONCURRENCY, fsPortFromNodeLike, RebuildIndex } from '../dist/index.js'

const SIZES = process.argv.slice(2).map(Number).filter((n) => n > 0)
const RUNS = 5
const GRADINGS_PER_TOOL = 10
const TOOLS_PER_SCHEMA = 50
const NOW = '2026-06-10T12:00:00Z'
const HASH = '93baef35'

function entry(area, i, grade) {
    const minute = String(i % 60).padStart(2, '0')
    const ts = `2026-05-${String(1 + (Math.floor(i / 60) % 28)).padStart(2, '0')}T10:${minute}:00Z`
    const score = { B: 4, C: 3, D: 2 }[grade]
    const answer = (questionId, determinism, s) => ({
        questionId,
        score: s,
        weight: 1,
        determinism,
        graderIdentity: determinism === 'deterministic' ? { kind: 'script', name: 'single-schema-validator', version: '0.1.0' } : { kind: 'llm', name: 'claude-opus-4-7', version: '1m' },
        ...(determinism === 'deterministic' ? {} : { llmModel: 'claude-opus-4-7', selectionContext: { groupId: 'crypto', personaIds: ['decision-maker'], domainDocId: 'crypto-1.0.0' } }),
        timestamp: ts,
        ...(determinism === 'deterministic' ? { evidence: 'https://example.org/proofs/run.txt' } : { reasoning: 'Clear, unambiguous trigger sentence; covers the canonical use case.' })
    })
    return {
        file: `${area}--${ts.replace(/:/g, '-')}.json`,
        text:
            JSON.stringify(
                {
                    gradingId: `${HASH}--${ts.replace(/:/g, '-')}`,
                    schemaId: 'bench.s0',
                    area,
                    version: 'flowmcp/4.0.0',
                    schemaHash: HASH,
                    gradingMode: 'full',
                    gradingTier: 'autonomous',
                    harness: 'claude-code',
                    scoringSystem: 'scoringSystem/1.0.0',
                    gradingSystem: 'gradingSystem/1.0.0',
                    gradings: [answer('Q-api-availability', 'deterministic', score), answer('Q-description-neutrality', 'deterministic', score), answer('Q-when-to-use', 'non-deterministic', score)],
                    categoricalVeto: null,
                    aggregateGrade: grade,
                    maxAttainableGrade: 'B'
                },
                null,
                4
            ) + '\n'
    }
}

/** Writes a namespace island with `size` grading files; returns the namespace folder and every grading path. */
function generate(root, size) {
    const ns = join(root, 'providers', 'bench')
    const paths = []
    const tools = Math.ceil(size / GRADINGS_PER_TOOL)
    const schemas = Math.ceil(tools / TOOLS_PER_SCHEMA)
    let written = 0
    for (let s = 0; s < schemas && written < size; s += 1) {
        const schema = `s${s}`
        const sd = join(ns, schema)
        mkdirSync(join(sd, 'schema'), { recursive: true })
        writeFileSync(join(sd, 'schema', `${schema}--2026-04-01T00-00-00Z--${HASH}.mjs`), 'export const main = {}\n')
        for (let t = 0; t < TOOLS_PER_SCHEMA && written < size; t += 1) {
            const gd = join(sd, 'tools', `tool${t}`, '_gradings')
            mkdirSync(gd, { recursive: true })
            for (let g = 0; g < GRADINGS_PER_TOOL && written < size; g += 1) {
                const e = entry('single-test', g + t, ['B', 'C', 'D'][(g + t) % 3])
                writeFileSync(join(gd, e.file), e.text)
                paths.push(join(gd, e.file))
                written += 1
            }
        }
    }
    return { ns, paths }
}

async function pool(items, limit, fn) {
    let next = 0
    const worker = async () => {
        while (next < items.length) {
            const i = next
            next += 1
            await fn(items[i])
        }
    }
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/** Runs `fn` and returns [milliseconds, peak heap growth in bytes]. */
async function measure(fn) {
    globalThis.gc?.()
    const base = process.memoryUsage().heapUsed
    let peak = base
    const timer = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().heapUsed)
    }, 2)
    const start = performance.now()
    await fn()
    const ms = performance.now() - start
    clearInterval(timer)
    peak = Math.max(peak, process.memoryUsage().heapUsed)
    return [ms, peak - base]
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`

const port = fsPortFromNodeLike(fsp)
const rows = []
for (const size of SIZES.length > 0 ? SIZES : [1_000, 10_000, 50_000]) {
    const root = mkdtempSync(join(tmpdir(), 'flowmcp-bench-'))
    try {
        const { ns, paths } = generate(root, size)
        const floor = async () => {
            let answers = 0
            await pool(paths, DEFAULT_READ_CONCURRENCY, async (p) => {
                answers += JSON.parse(await port.readFile(p)).gradings.length
            })
            if (answers === 0) throw new Error('floor read nothing')
        }
        const rebuild = async () => {
            await port.rm(join(ns, 'index.json'))
            const res = await RebuildIndex.rebuildNamespaceIndex({ fs: port, namespaceDir: ns, now: NOW })
            if (!res.status) throw new Error(`rebuild failed: ${JSON.stringify(res.errors.slice(0, 3))}`)
        }
        await floor()
        await rebuild()
        const f = []
        const r = []
        for (let i = 0; i < RUNS; i += 1) {
            f.push(await measure(floor))
            r.push(await measure(rebuild))
        }
        const fm = median(f.map((x) => x[0]))
        const rm = median(r.map((x) => x[0]))
        rows.push({
            files: size,
            'floor ms': fm.toFixed(0),
            'rebuild ms': rm.toFixed(0),
            'rebuild/floor': (rm / fm).toFixed(2),
            'rebuild µs/file': ((rm * 1000) / size).toFixed(1),
            'floor peak heap': mb(median(f.map((x) => x[1]))),
            'rebuild peak heap': mb(median(r.map((x) => x[1])))
        })
    } finally {
        rmSync(root, { recursive: true, force: true })
    }
}
console.table(rows)
