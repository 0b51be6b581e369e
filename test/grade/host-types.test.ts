import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import {
    isGradingEntry,
    validateGradingEntry,
    type GradeSelectionResult,
    type Judge,
    type JudgeRequest,
    type JudgeResponse
} from '../../src/index.js'

// The types a host hands in and reads back, as the host writes them: the judge's signal is the platform's
// AbortSignal (it goes to fetch as it is), `strict: true` needs `now`, a question id is a QuestionId and a
// selection's grades are the grade union.

declare const entry: unknown
declare const url: string

/** Type-level cases, checked by `npm run typecheck` (test/tsconfig.json, with Node's types); never called. */
export function hostTypeCases(): void {
    // The signal goes to fetch as it is; a judge may report usage.
    const judge: Judge = async (request, { signal }) => {
        const response = await fetch(url, { method: 'POST', body: JSON.stringify(request.messages), signal })
        return { text: await response.text(), usage: { inputTokens: 1, outputTokens: 1 } } satisfies JudgeResponse
    }
    const stringJudge: Judge = async (_request, context) => (context.signal.aborted ? '' : '{}')
    void judge
    void stringJudge

    // strict: true needs now, in the type as at run time (GRD-074).
    validateGradingEntry({ entry, strict: true, now: '2026-01-01T00:00:00Z' })
    validateGradingEntry({ entry, now: new Date() })
    validateGradingEntry({ entry })
    // @ts-expect-error strict without now
    validateGradingEntry({ entry, strict: true })
    // @ts-expect-error strict without now, through the predicate
    isGradingEntry(entry, { strict: true })
    isGradingEntry(entry, { strict: true, now: new Date() })

    // A question id of a request is a catalogue question id.
    const asked: JudgeRequest['questions'][number]['questionId'] = 'Q-single-test-01'
    // @ts-expect-error not a question of the catalogue
    const invented: JudgeRequest['questions'][number]['questionId'] = 'Q-made-up-99'
    void asked
    void invented

    // A selection's grades are the grade union.
    type SelectionGrading = NonNullable<GradeSelectionResult['grading']>
    const grade: SelectionGrading['aggregateGrade'] = 'REJECTED'
    const raw: SelectionGrading['rawGrade'] = 'A'
    // @ts-expect-error no grade
    const noGrade: SelectionGrading['aggregateGrade'] = 'Z'
    // @ts-expect-error REJECTED is an aggregate grade, never a raw band
    const rawRejected: SelectionGrading['rawGrade'] = 'REJECTED'
    void grade
    void raw
    void noGrade
    void rawRejected
}

const here = dirname(fileURLToPath(import.meta.url))

/** What tsc says of `lines`, compiled against src/ with the given libs and type packages. */
function diagnosticsOf(lines: readonly string[], lib: string[], types: string[]): string[] {
    const file = join(here, '__host-types-probe__.ts')
    const text = [
        "import type { Judge } from './../../src/grade/types.js'",
        'declare const url: string',
        'void url',
        ...lines
    ].join('\n')
    const options: ts.CompilerOptions = {
        strict: true,
        exactOptionalPropertyTypes: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib,
        types,
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
    return ts.getPreEmitDiagnostics(program, source).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}

const FETCHING_JUDGE = [
    'export const judge: Judge = async (request, { signal }) => {',
    '    const response = await fetch(url, { method: "POST", body: request.prompt, signal })',
    '    return response.text()',
    '}'
]

describe('the judge signal is the platform AbortSignal', () => {
    it('goes to fetch as it is under the DOM lib', () => {
        expect(diagnosticsOf(FETCHING_JUDGE, ['lib.es2022.d.ts', 'lib.dom.d.ts'], [])).toEqual([])
    }, 60_000)

    it('goes to fetch as it is with Node’s types and no DOM', () => {
        expect(diagnosticsOf(FETCHING_JUDGE, ['lib.es2022.d.ts'], ['node'])).toEqual([])
    }, 60_000)

    it('is the library’s own AbortSignalLike where the typings declare no AbortSignal (the core’s own build)', () => {
        const lines = [
            'export const judge: Judge = async (_request, { signal }) => (signal.aborted ? "" : "{}")',
            'export const wrong: Judge = async (_request, { signal }) => signal.throwIfAborted()'
        ]
        const said = diagnosticsOf(lines, ['lib.es2022.d.ts'], [])
        expect(said).toHaveLength(1)
        expect(said[0]).toMatch(/throwIfAborted/)
    }, 60_000)
})
