// Rebuild cost against its floor: for islands of 1k, 10k and 50k grading files in a real temp
// directory, time RebuildIndex.rebuildNamespaceIndex and, in the same run, the floor = reading and
// JSON.parse-ing every grading file once through the same port with the same concurrency.
//
//   npm run build && node --expose-gc bench/rebuild-index.bench.mjs [sizes…]
//
// Prints, per size (medians of RUNS): the floor, a full rebuild (no record) and a rebuild after one
// new entry (record present) — times, the ratios full/floor and incremental/full, and peak heap
// growth with its ratio to the floor's. Both rebuilds include what a rebuild that writes does
// afterwards: listing every folder once more (the concurrent-writer re-check). `npm run bench`
// runs it at 10k files. BENCH_DIST=<dir> measures another build of the library (e.g. the previous
// release) the same way; BENCH_RUNS=<n> takes medians of n runs instead of 5.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import * as nodeFs from 'node:fs'
import * as fsp from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const distFile = (name) =>
    process.env.BENCH_DIST
        ? pathToFileURL(join(process.env.BENCH_DIST, name)).href
        : new URL(`../dist/${name}`, import.meta.url).href
const { fsPortFromNodeLike, RebuildIndex } = await import(distFile('index.js'))
const { DEFAULT_READ_CONCURRENCY } = await import(distFile('catalogue.js'))

const RUNS = Number(process.env.BENCH_RUNS) > 0 ? Number(process.env.BENCH_RUNS) : 5
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
        graderIdentity:
            determinism === 'deterministic'
                ? { kind: 'script', name: 'single-schema-validator', version: '0.1.0' }
                : { kind: 'llm', name: 'claude-opus-4-7', version: '1m' },
        ...(determinism === 'deterministic'
            ? {}
            : {
                  llmModel: 'claude-opus-4-7',
                  selectionContext: { groupId: 'crypto', personaIds: ['decision-maker'], domainDocId: 'crypto-1.0.0' }
              }),
        timestamp: ts,
        ...(determinism === 'deterministic'
            ? { evidence: 'https://example.org/proofs/run.txt' }
            : { reasoning: 'Clear, unambiguous trigger sentence; covers the canonical use case.' })
    })
    return {
        file: `${area}--${ts.replace(/:/g, '-')}.json`,
        text: `${JSON.stringify(
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
                gradings: [
                    answer('Q-api-availability', 'deterministic', score),
                    answer('Q-description-neutrality', 'deterministic', score),
                    answer('Q-when-to-use', 'non-deterministic', score)
                ],
                categoricalVeto: null,
                aggregateGrade: grade,
                maxAttainableGrade: 'B'
            },
            null,
            4
        )}\n`
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

// The host hands in node:fs: the adapter reads small files with its callback API when it can.
const port = fsPortFromNodeLike(process.env.BENCH_FS === 'promises' ? fsp : nodeFs)
const RECORD = '.index-record'

async function measureSize(size) {
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
        const rebuild = async (incremental) => {
            const res = await RebuildIndex.rebuildNamespaceIndex({ fs: port, namespaceDir: ns, now: NOW, incremental })
            if (!res.status) throw new Error(`rebuild failed: ${JSON.stringify(res.errors.slice(0, 3))}`)
        }
        const full = async () => {
            await port.rm(join(ns, 'index.json'))
            await port.rm(join(ns, RECORD))
            await rebuild(false)
        }
        // One new entry per run, in the first tool's folder, newer than everything there.
        let added = 0
        const addOne = () => {
            added += 1
            const e = entry('single-test', 0, 'B')
            const name = `single-test--2026-06-${String(1 + (added % 28)).padStart(2, '0')}T${String(Math.floor(added / 28) % 24).padStart(2, '0')}-00-00Z.json`
            writeFileSync(join(ns, 's0', 'tools', 'tool0', '_gradings', name), e.text)
        }
        await floor()
        await full()
        const f = []
        const r = []
        const inc = []
        for (let i = 0; i < RUNS; i += 1) {
            f.push(await measure(floor))
            r.push(await measure(full))
            addOne()
            inc.push(await measure(() => rebuild(true)))
        }
        const fm = median(f.map((x) => x[0]))
        const rm = median(r.map((x) => x[0]))
        const im = median(inc.map((x) => x[0]))
        const fh = median(f.map((x) => x[1]))
        const rh = median(r.map((x) => x[1]))
        return {
            files: size,
            'floor ms': Number(fm.toFixed(0)),
            'full ms': Number(rm.toFixed(0)),
            'full/floor': Number((rm / fm).toFixed(2)),
            'one new entry ms': Number(im.toFixed(1)),
            'one new/full': Number((im / rm).toFixed(3)),
            'floor heap': mb(fh),
            'full heap': mb(rh),
            'heap full/floor': Number((rh / fh).toFixed(2))
        }
    } finally {
        rmSync(root, { recursive: true, force: true })
    }
}

/** For bench/run.mjs: one 10k-file namespace, ratios in the notes. */
export async function run() {
    const row = await measureSize(10_000)
    const ops = (ms) => Number((1000 / ms).toFixed(2))
    return [
        {
            name: 'baseline: read + JSON.parse 10k grading files',
            opsPerSec: ops(row['floor ms']),
            note: `${row['floor ms']} ms, heap +${row['floor heap']}`
        },
        {
            name: 'full rebuild, 10k files',
            opsPerSec: ops(row['full ms']),
            note: `${row['full ms']} ms = ${row['full/floor']}× the floor; heap +${row['full heap']} = ${row['heap full/floor']}× the floor's (targets ≤ 1.3×, ≤ 2×)`
        },
        {
            name: 'rebuild after one new entry, 10k files',
            opsPerSec: ops(row['one new entry ms']),
            note: `${row['one new entry ms']} ms = ${row['one new/full']}× a full rebuild (target ≤ 0.10×)`
        }
    ]
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
    const sizes = process.argv
        .slice(2)
        .map(Number)
        .filter((n) => n > 0)
    const rows = []
    for (const size of sizes.length > 0 ? sizes : [1_000, 10_000, 50_000]) rows.push(await measureSize(size))
    console.table(rows)
}
