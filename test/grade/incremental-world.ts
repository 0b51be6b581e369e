// A small source tree of one namespace, its recordings and a deterministic judge, for the tests that grade a tree
// again in place and compare with a clean grade (test/grade/incremental.test.ts).
import {
    Areas,
    createMemoryFs,
    gradeNamespace,
    httpPortFromRecordings,
    type FsPort,
    type GradeNamespaceResult,
    type JudgeRequest,
    type Recording
} from '../../src/index.js'
import { grader } from './helpers.js'

/**
 * What a tool's recorded answers look like: data that matches its output schema, an array instead, an error, or data
 * for the first test only (one working test).
 */
export type Variant = 'ok' | 'array' | 'error' | 'one'

export interface ToolSpec {
    readonly name: string
    readonly variant: Variant
}

export interface SchemaSpec {
    readonly file: string
    readonly tools: readonly ToolSpec[]
    /** A comment line's number: a comment-only edit keeps the schema hash and changes the bytes. */
    readonly comment: number
    /** Declares the namespace About (`resources/incdemo-about.md`). */
    readonly about?: boolean
}

export interface World {
    readonly schemas: readonly SchemaSpec[]
    readonly minWorkingTests: number
    /** The About's revision; without it the tree has no About file. */
    readonly about?: number
}

export const HOST = 'https://api.incdemo.io'

/** A schema module of the world: one GET tool per spec, three tests each, an object output schema. */
export function schemaSource(schema: SchemaSpec): string {
    const tools = Object.fromEntries(
        schema.tools.map((t) => [
            t.name,
            {
                method: 'GET',
                path: `/v1/${t.name}`,
                description: `Returns the ${t.name} record with the given id from the demo API, as one JSON object.`,
                parameters: [
                    {
                        position: { key: 'id', value: '{{USER_PARAM}}', location: 'query' },
                        z: { primitive: 'number()', options: ['min(1)'] },
                        description: 'Record id.'
                    }
                ],
                output: {
                    mimeType: 'application/json',
                    schema: { type: 'object', properties: { id: { type: 'number' }, name: { type: 'string' } } }
                },
                tests: [
                    { _description: 'first', id: 1 },
                    { _description: 'second', id: 2 },
                    { _description: 'third', id: 3 }
                ]
            }
        ])
    )
    const main = {
        namespace: 'incdemo',
        name: 'IncDemo',
        description: 'Records of the demo API, one tool per record kind, for grading a tree again in place.',
        version: '4.2.0',
        root: HOST,
        requiredServerParams: [],
        ...(schema.about === true
            ? {
                  resources: {
                      about: {
                          source: 'markdown',
                          origin: 'inline',
                          name: 'incdemo-about.md',
                          description: 'What the demo namespace offers, its limits and its use cases.'
                      }
                  }
              }
            : {}),
        tools
    }
    return `// revision ${schema.comment}\nexport const main = ${JSON.stringify(main, null, 4)}\n`
}

/** The recordings of every tool of the world, as its variant says. */
export function recordingsOf(world: World): Recording[] {
    const exchanges = world.schemas.flatMap((s) =>
        s.tools.flatMap((t) =>
            [1, 2, 3].map((id) => ({
                request: { method: 'GET', path: `/v1/${t.name}`, query: { id: String(id) } },
                response:
                    t.variant === 'error' || (t.variant === 'one' && id > 1)
                        ? { status: 500, body: '{"error":"upstream failed"}' }
                        : {
                              status: 200,
                              body: JSON.stringify(
                                  t.variant === 'array'
                                      ? [{ id, name: `${t.name}-${id}` }]
                                      : { id, name: `${t.name}-${id}` }
                              )
                          }
            }))
        )
    )
    return [{ host: HOST, exchanges } as unknown as Recording]
}

/** A small stable number from a text (FNV-1a), so the judge's scores follow what it reads. */
function digest(text: string): number {
    let h = 0x811c9dc5
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
    return h
}

/**
 * A judge whose scores are a function of what it is given to read (the unit and its files) and nothing else, so a
 * clean grade and a grade in place agree exactly when they read the same inputs.
 */
export function contentJudge(): { judge: (r: JudgeRequest) => Promise<string>; asked: JudgeRequest[] } {
    const asked: JudgeRequest[] = []
    return {
        asked,
        judge: async (request) => {
            asked.push(request)
            const read = `${request.unit}\n${request.attachments.map((a) => `${a.name}\n${a.content}`).join('\n')}`
            const answers = request.questions.map((q) => {
                const row = Areas.questions({ area: request.area }).questions.find((x) => x.id === q.questionId)
                const boolean = row?.scoreType === 'boolean'
                const n = digest(`${read}\n${q.questionId}`)
                return {
                    questionId: q.questionId,
                    score: boolean ? (n % 4 === 0 ? 'fail' : 'pass') : 1 + (n % 5),
                    reasoning: 'Read the files.'
                }
            })
            return JSON.stringify({ answers, improvementHints: [] })
        }
    }
}

/** Writes the world's tree into a fresh source file system: `/src/incdemo/<file>`. */
export async function sourceTree(world: World): Promise<FsPort> {
    const fs = createMemoryFs()
    await fs.mkdir('/src/incdemo')
    for (const schema of world.schemas) await fs.writeFile(`/src/incdemo/${schema.file}`, schemaSource(schema))
    if (world.about !== undefined) {
        await fs.mkdir('/src/incdemo/resources')
        await fs.writeFile(
            '/src/incdemo/resources/incdemo-about.md',
            `# IncDemo\n\nRecords of the demo API (revision ${world.about}): what it offers, its limits, its use cases.\n`
        )
    }
    return fs
}

/** Grades the world's tree into `island` (resumed unless `force`), at `now`. */
export async function gradeWorld(
    world: World,
    island: FsPort,
    now: string,
    judge: (r: JudgeRequest) => Promise<string>,
    force = false
): Promise<GradeNamespaceResult> {
    const sourceFs = await sourceTree(world)
    return gradeNamespace({
        dir: '/src/incdemo',
        grader,
        options: {
            sourceFs,
            fs: island,
            root: '/island',
            now,
            judge,
            http: httpPortFromRecordings({ recordings: recordingsOf(world) }),
            minWorkingTests: world.minWorkingTests,
            resume: !force
        }
    })
}

/** What must be equal between a grade in place and a clean grade: per schema and for the namespace. */
export async function standingsOf(result: GradeNamespaceResult, island: FsPort): Promise<unknown> {
    const text = await island.readFile('/island/providers/incdemo/index.json')
    const index = text === null ? null : (JSON.parse(text) as Record<string, any>)
    const { removed: _removed, ...summary } = index?.summary ?? {}
    return {
        schemas: Object.fromEntries(
            result.schemas.map((row) => {
                const g = row.result.grading
                return [
                    row.file,
                    g === null
                        ? null
                        : {
                              status: g.status,
                              grade: g.grade,
                              schemaGrade: g.schemaGrade,
                              unitGrades: g.unitGrades,
                              unitStatuses: Object.fromEntries(g.units.map((u) => [u.unit, u.status]))
                          }
                ]
            })
        ),
        namespace: {
            grade: result.grade,
            mode: result.mode,
            rollupStatus: result.rollupStatus,
            rollupGrade: result.rollupGrade,
            units: Object.fromEntries(result.units.map((u) => [u.unit, [u.status, u.aggregateGrade]]))
        },
        index:
            index === null
                ? null
                : {
                      status: index.status,
                      grade: index.grade,
                      summary,
                      schemas: Object.fromEntries(
                          Object.entries(index.schemas ?? {}).map(([name, node]: [string, any]) => [
                              name,
                              {
                                  status: node.status,
                                  grade: node.grade,
                                  tools: Object.fromEntries(
                                      Object.entries(node.tools ?? {}).map(([t, n]: [string, any]) => [
                                          t,
                                          [n.status, n.grade]
                                      ])
                                  )
                              }
                          ])
                      )
                  }
    }
}
