import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import type { AnsweringGrader, GradeSingleSchemaInput, GraderInput, Judge } from '../../src/index.js'

declare function grade(input: GradeSingleSchemaInput): void
declare const judge: Judge
declare const grader: AnsweringGrader
declare const plainGrader: GraderInput
const now = '2026-01-01T00:00:00Z'

/** Type-level cases, checked by `npm run typecheck` (test/tsconfig.json); never called. */
export function inputTypeCases(): void {
    // Accepted: provisional without a grader, a grader without persona, a judge or answers with a persona.
    grade({ schemaPath: 'x.mjs', options: { now } })
    grade({ schemaPath: 'x.mjs', grader: plainGrader, options: { now } })
    grade({ schemaPath: 'x.mjs', grader, options: { now, judge } })
    grade({ schemaPath: 'x.mjs', grader, options: { now, answers: {} } })
    grade({ schema: { main: {} }, grader, options: { now, judge } })
    grade({ schema: { main: {} }, schemaPath: 'providers/ns/x.mjs', options: { now } })
    grade({ schema: { main: {} }, fileName: 'x.mjs', schemaId: 'ns.x', options: { clock: { now: () => now } } })

    // @ts-expect-error a judge needs a grader
    grade({ schemaPath: 'x.mjs', options: { now, judge } })
    // @ts-expect-error answers need a grader
    grade({ schemaPath: 'x.mjs', options: { now, answers: {} } })
    // @ts-expect-error a judge needs a grader, for a schema given as an object too
    grade({ schema: { main: {} }, options: { now, judge } })
    // @ts-expect-error a judge needs a grader with a persona
    grade({ schemaPath: 'x.mjs', grader: plainGrader, options: { now, judge } })
    // @ts-expect-error neither schemaPath nor schema
    grade({ options: { now } })
}

const here = dirname(fileURLToPath(import.meta.url))

/** The messages (every line of each chain) tsc gives for `call`, compiled against src/grade/types.ts. */
function diagnosticsOf(calls: readonly string[]): string[] {
    const file = join(here, '__input-types-probe__.ts')
    const text = [
        "import type { AnsweringGrader, GradeSingleSchemaInput, GraderInput, Judge } from './../../src/grade/types.js'",
        'declare function grade(input: GradeSingleSchemaInput): void',
        'declare const judge: Judge',
        'declare const grader: AnsweringGrader',
        'declare const plainGrader: GraderInput',
        "const now = '2026-01-01T00:00:00Z'",
        'void grader, plainGrader, judge, now',
        ...calls
    ].join('\n')
    const options: ts.CompilerOptions = {
        strict: true,
        exactOptionalPropertyTypes: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2022.d.ts'],
        types: [],
        noEmit: true,
        skipLibCheck: true
    }
    const host = ts.createCompilerHost(options)
    const base = host.getSourceFile.bind(host)
    host.getSourceFile = (name, version, ...rest) =>
        name === file ? ts.createSourceFile(name, text, version) : base(name, version, ...rest)
    const exists = host.fileExists.bind(host)
    host.fileExists = (name) => name === file || exists(name)
    const program = ts.createProgram([file], options, host)
    const source = program.getSourceFile(file) as ts.SourceFile
    return ts
        .getPreEmitDiagnostics(program, source)
        .map(
            (d) =>
                `${source.getLineAndCharacterOfPosition(d.start ?? 0).line - 7}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
        )
}

describe('GradeSingleSchemaInput', () => {
    it('reports a missing grader, not a missing schema, when a judge or answers are given without grader', () => {
        const messages = diagnosticsOf([
            "grade({ schemaPath: 'x.mjs', options: { now, judge } })",
            "grade({ schemaPath: 'x.mjs', options: { now, answers: {} } })",
            'grade({ schema: { main: {} }, options: { now, judge } })',
            "grade({ schemaPath: 'x.mjs', grader: plainGrader, options: { now, judge } })",
            "grade({ schemaPath: 'x.mjs', options: { now } })"
        ])
        expect(messages).toHaveLength(4)
        const [judgeOnly, answersOnly, objectSchema, noPersona] = messages as [string, string, string, string]
        for (const m of [judgeOnly, answersOnly, objectSchema]) {
            expect(m).toContain("Property 'grader' is missing")
            expect(m).not.toContain("Property 'schema' is missing")
        }
        expect(noPersona).toMatch(/^3: /)
        expect(noPersona).toContain("Types of property 'grader' are incompatible")
        expect(noPersona).toContain("Property 'persona' is optional in type 'GraderInput'")
    }, 60_000)
})
