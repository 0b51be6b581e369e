// Grading the 61-schema corpus sample as a tree (gradeTree) with a judge that sleeps 50 ms per unit:
// schemas per second, sequential against 4 namespaces at a time, in the same run.
// Skipped when ../shared/corpus-sample is absent.
import { existsSync } from 'node:fs'
import * as fsp from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { fsPortFromNodeLike, gradeTree } from '../dist/index.js'

const SAMPLE = new URL('../../shared/corpus-sample/schemas/', import.meta.url)
const now = '2026-11-24T00:00:00Z'
const grader = {
    name: 'bench-judge',
    version: '1.0.0',
    llmModel: 'sleeping-model',
    persona: { basePersonaId: 'schema-maintainer', lensId: 'bench' }
}

const judge = async (request) => {
    await new Promise((resolve) => setTimeout(resolve, 50))
    return JSON.stringify({
        answers: request.questions.map((q) => ({ questionId: q.questionId, score: 4, reasoning: 'bench' }))
    })
}

async function timed(concurrency) {
    const fs = fsPortFromNodeLike(fsp)
    const t = performance.now()
    const run = await gradeTree({
        root: fileURLToPath(SAMPLE),
        grader,
        options: { sourceFs: fs, now, judge, concurrency }
    })
    const ms = performance.now() - t
    const schemas = run.namespaces.reduce((n, ns) => n + ns.schemas.length, 0)
    return { ms, schemas }
}

export async function run() {
    if (!existsSync(SAMPLE)) return [{ name: 'corpus sample absent (../shared/corpus-sample): skipped', note: '' }]
    const sequential = await timed(1)
    const parallel = await timed(4)
    const perSec = (r) => Math.round((r.schemas / r.ms) * 1000 * 10) / 10
    return [
        {
            name: `baseline: gradeTree, 1 namespace at a time (${sequential.schemas} schemas)`,
            opsPerSec: perSec(sequential),
            note: `${(sequential.ms / 1000).toFixed(1)} s, judge sleeps 50 ms per unit`
        },
        {
            name: `gradeTree, 4 namespaces at a time (${parallel.schemas} schemas)`,
            opsPerSec: perSec(parallel),
            note: `${(parallel.ms / 1000).toFixed(1)} s`
        }
    ]
}
