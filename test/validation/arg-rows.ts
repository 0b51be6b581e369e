// The bad inputs and row builders of the recorded argument-check tables (test/validation/arg-checks-table*.test.ts):
// each entry point is fed every value below per field, and what came back is written to arg-checks/*.json.
import { expect, it } from 'vitest'
import type { Issue } from '../../src/errors/types.js'

/** Values of the wrong kind every field is fed: each old check saw some of them. */
export const BAD: Readonly<Record<string, unknown>> = {
    undefined: undefined,
    null: null,
    string: 'x',
    empty: '',
    number: 3,
    NaN: Number.NaN,
    Infinity: Number.POSITIVE_INFINITY,
    negative: -1,
    fraction: 1.5,
    boolean: true,
    array: [],
    arrayOfJunk: [1, null, 'x'],
    object: {},
    objectOfJunk: { a: 1, b: null },
    function: () => 1
}

export const NON_OBJECTS = Object.keys(BAD).filter((k) => k !== 'object' && k !== 'objectOfJunk')

export type Row = { case: string; issues: Array<Pick<Issue, 'code' | 'path' | 'message'>> }

/** One row per bad value (or the labels in `only`) fed through `run`. */
export function rows(name: string, run: (value: unknown) => readonly Issue[], only?: readonly string[]): Row[] {
    return Object.entries(BAD)
        .filter(([label]) => only === undefined || only.includes(label))
        .map(([label, value]) => ({
            case: `${name} = ${label}`,
            issues: run(value).map(({ code, path, message }) => ({ code, path, message }))
        }))
}

/** {@link rows} for each field in turn. */
export function table(fields: readonly string[], run: (field: string, value: unknown) => readonly Issue[]): Row[] {
    return fields.flatMap((field) => rows(field, (value) => run(field, value)))
}

/** Compares an entry point's rows with its recorded file `arg-checks/<entry>.json`. */
export async function expectRecorded(entry: string, list: readonly Row[]): Promise<void> {
    const file = `./arg-checks/${entry.replace(/[^A-Za-z0-9.]+/g, '-')}.json`
    await expect(`${JSON.stringify(list, null, 1)}\n`).toMatchFileSnapshot(file)
}

/** One test per entry point, its rows held by `./arg-checks/<entry>.json`. */
export function recorded(list: Readonly<Record<string, Row[]>>): void {
    for (const [entry, found] of Object.entries(list)) it(entry, () => expectRecorded(entry, found))
}

/** {@link recorded} for tables built by async entry points, one test for them all. */
export function recordedAsync(build: () => Promise<Readonly<Record<string, Row[]>>>): void {
    it('async entry points', async () => {
        for (const [entry, found] of Object.entries(await build())) await expectRecorded(entry, found)
    })
}
