// What the judge calls of grading the corpus sample cost in input tokens (characters / 4), before and
// after the cache-friendly request: the old recipes sent the prompt, then every attachment inline.
// Not a speed benchmark: the figures are token counts of one offline run (no judge is called).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { createMemoryFs, gradeNamespace, JudgeCost } from '../dist/index.js'

const SAMPLE = new URL('../../shared/corpus-sample/schemas/', import.meta.url)
// One data-block boundary for the whole run, as the CLI uses (its system message is then the same for every call).
const RUN_BOUNDARY = 'FLOWMCP-DATA-0123456789abcdef'
// Every test request answers with data (nothing leaves the machine), so every tool's unit is asked, as in a live run;
// without it the untested tools are blocked and only the aggregates would be counted.
const ANSWERING = {
    async send() {
        return {
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ data: [{ id: 1, name: 'sample', value: 42 }] })
        }
    }
}

/** The text the old shell recipes sent (docs/judges.md before `messages`): the prompt, then each file fenced. */
const oldRecipeText = (p) =>
    `${p.prompt}\n\n${p.attachments.map((a) => `## File: ${a.name} (${a.role})\n\n\`\`\`\`\n${a.content}\n\`\`\`\``).join('\n\n')}`

export async function measure() {
    const fs = createMemoryFs()
    const dirs = readdirSync(SAMPLE).sort()
    const namespaces = []
    for (const ns of dirs) {
        await fs.mkdir(`/${ns}`)
        for (const file of readdirSync(new URL(`${ns}/`, SAMPLE))
            .filter((f) => f.endsWith('.mjs'))
            .sort())
            await fs.writeFile(`/${ns}/${file}`, readFileSync(new URL(`${ns}/${file}`, SAMPLE), 'utf8'))
        namespaces.push(
            await gradeNamespace({
                dir: `/${ns}`,
                grader: {
                    name: 'estimate',
                    version: '1',
                    llmModel: 'none',
                    persona: { basePersonaId: 'schema-maintainer', lensId: 'neutral' }
                },
                options: {
                    sourceFs: fs,
                    now: '2026-11-25T10:00:00Z',
                    boundary: RUN_BOUNDARY,
                    http: ANSWERING,
                    serverParams: (keys) => Object.fromEntries(keys.map((k) => [k, 'bench-placeholder']))
                }
            })
        )
    }
    const calls = JudgeCost.callsOf({ namespaces })
    const now = JudgeCost.estimate({ calls })
    const before = JudgeCost.estimate({
        calls: namespaces.flatMap((n) => [
            ...n.schemas.flatMap((s) =>
                s.result.prompts.map((p) => ({
                    key: s.result.grading?.schemaId ?? '?',
                    messages: [{ role: 'user', content: oldRecipeText(p), cacheable: false, part: 'unit' }]
                }))
            ),
            ...n.prompts.map((p) => ({
                key: `${n.namespace} (namespace)`,
                messages: [{ role: 'user', content: oldRecipeText(p), cacheable: false, part: 'unit' }]
            }))
        ])
    })
    const schemas = namespaces.reduce((n, ns) => n + ns.schemas.filter((s) => s.result.grading !== null).length, 0)
    return { schemas, now, before }
}

export async function run() {
    if (!existsSync(SAMPLE)) return [{ name: 'judge cost: ../shared/corpus-sample absent, skipped' }]
    const { schemas, now, before } = await measure()
    const per = (e, f) => Math.round(e[f] / schemas)
    return [
        {
            name: `judge cost, ${schemas} sample schemas: calls`,
            note: `${now.calls} (${(now.calls / schemas).toFixed(1)} per schema)`
        },
        {
            name: 'input tokens per schema, old recipe (prompt + attachments)',
            note: `${per(before, 'inputTokens')} total, ${per(before, 'uncachedTokens')} not served by a prefix cache`
        },
        {
            name: 'input tokens per schema, messages',
            note: `${per(now, 'inputTokens')} total (${(now.inputTokens / before.inputTokens).toFixed(2)}× old), ${per(now, 'uncachedTokens')} not served by a prefix cache (${(now.uncachedTokens / before.uncachedTokens).toFixed(2)}× old); targets ≤ 30000 and ≤ 8000`
        },
        // A repair turn repeats its call's messages and adds one follow-up: with the prefix cached it is billed for that follow-up only.
        {
            name: 'a repair turn, per call repaired',
            note: `${Math.round(now.repairs.uncachedTokens / now.repairs.maxCalls)} input tokens not served by a prefix cache (${(now.repairs.uncachedTokens / now.uncachedTokens).toFixed(2)}× the first call's), ${Math.round(now.repairs.cachedTokens / now.repairs.maxCalls)} served by it, ${Math.round(now.repairs.outputTokens / now.repairs.maxCalls)} output; at most ${now.repairs.maxCalls} such calls (one per call)`
        }
    ]
}
