import { SEVERITY } from '../model/constants.js'
import type { Issue } from '../errors/types.js'
import { convertId, normalizeVersion, parseId, schemaIdOf, toolIdOf, type IdStyle, type ParsedId } from './ids.js'
import { validateMain } from './validate-main.js'
import { guardStatics } from '../errors/guard.js'

/** Result of {@link SchemaCheck.validateMain}. */
export interface MainValidation {
    /** `true` when no issue has severity `error` (warnings never make `main` invalid). */
    readonly valid: boolean
    /** Every finding, errors and warnings, each with its JSON Pointer into `main`. */
    readonly errors: Issue[]
}

/**
 * Static analysis of a FlowMCP v4 schema `main` (05 §2.3, 03 §13.1) and the schema id helpers
 * (01-model ⚠ A14). Pure: nothing is loaded, fetched or executed.
 */
class SchemaCheckUnguarded {
    private constructor() {}

    /**
     * Validates the structure of a v4 `main` at two levels (docs/schema-checks.md has the table).
     * Errors are what the FlowMCP runtime's `MainValidator` rejects (05 §2.3): strict keys, required
     * strings, the namespace and version patterns, the root prefix, the 8-tool limit, tool, parameter,
     * output, preload, meta and resource shapes. Warnings are the spec's stricter rules that the
     * runtime tolerates (PascalCase name, tag pattern, declared server params, path placeholders, test
     * keys, …): reported with a path, scored by `Q-schema-structure`, never blocking.
     * Paths are JSON Pointers into `main` (`/tools/getBalance/parameters/0`).
     * @param input - `{ main }`
     * @returns `{ valid, errors }` — runtime errors `SCH-001`…`SCH-029`, warnings `SCH-WARN-001`…`SCH-WARN-024`
     *   (spec-strict ones: `SCH-WARN-011`…`SCH-WARN-020`; beginner mistakes: `SCH-WARN-021`…`SCH-WARN-024`),
     *   or `INP-001`…`INP-003` for a `main` that is not plain JSON.
     * @example SchemaCheck.validateMain({ main }).valid
     */
    static validateMain(input: { main?: unknown }): MainValidation {
        const errors = validateMain((input as { main?: unknown } | null | undefined)?.main)
        return { valid: !errors.some((i) => i.severity === SEVERITY.error), errors }
    }

    /**
     * Normalises a schema version to the grading form (03 ⚠ C23): `'4.0.0'` → `'flowmcp/4.0.0'`.
     * @param input - `{ version }`
     * @returns `{ version, errors }`; `SCH-008` for anything but `4.x.y` / `flowmcp/4.x.y`.
     * @example SchemaCheck.normalizeVersion({ version: '4.2.0' }).version // 'flowmcp/4.2.0'
     */
    static normalizeVersion(input: { version?: unknown }): { version: string | null; errors: Issue[] } {
        return normalizeVersion((input as { version?: unknown } | null | undefined)?.version)
    }

    /**
     * The grading `schemaId` of a schema file: `<namespace>.<schemaSlug>`, the slug being the file
     * base name without directory and extension (01-model ⚠ A14).
     * @param input - `{ main, fileBase }` (`fileBase` may be `'prices.mjs'` or a path)
     * @returns `{ schemaId, errors }`; `SCH-004`/`SCH-007` for the namespace, `SCH-031` for a bad slug.
     * @example
     * SchemaCheck.schemaIdOf({ main: { namespace: 'defillama' }, fileBase: 'prices.mjs' }).schemaId
     * // 'defillama.prices'
     */
    static schemaIdOf(input: { main?: unknown; fileBase?: unknown }): { schemaId: string | null; errors: Issue[] } {
        const args = (input ?? {}) as { main?: unknown; fileBase?: unknown }
        return schemaIdOf(args.main, args.fileBase)
    }

    /**
     * Takes an id of any of the three styles apart: `ns.schema` (grading entries), `ns/schema`
     * (scoring transport) or `ns/<kind>/<name>` (Schemas-Spec primitive ids).
     * @param input - `{ id }`
     * @returns `{ id: { style, namespace, schema, primitive, name }, errors }`; `SCH-031` when no style fits.
     * @example SchemaCheck.parseId({ id: 'etherscan/tool/getBalance' }).id?.primitive // 'tool'
     */
    static parseId(input: { id?: unknown }): { id: ParsedId | null; errors: Issue[] } {
        return parseId((input as { id?: unknown } | null | undefined)?.id)
    }

    /**
     * Converts a schema id between the `dot` and `slash` styles. A primitive id names no schema
     * and cannot be converted (`SCH-031`).
     * @param input - `{ id, to: 'dot' | 'slash' }`
     * @returns `{ id, errors }`
     * @example SchemaCheck.convertId({ id: 'defillama/prices', to: 'dot' }).id // 'defillama.prices'
     */
    static convertId(input: { id?: unknown; to?: IdStyle | unknown }): { id: string | null; errors: Issue[] } {
        const args = (input ?? {}) as { id?: unknown; to?: unknown }
        return convertId(args.id, args.to)
    }

    /**
     * The primitive id `ns/tool/<name>` of one tool.
     * @param input - `{ namespace, tool }`
     * @returns `{ id, errors }`; `SCH-031` for a part outside `[a-zA-Z0-9_-]+`.
     * @example SchemaCheck.toolIdOf({ namespace: 'etherscan', tool: 'getBalance' }).id // 'etherscan/tool/getBalance'
     */
    static toolIdOf(input: { namespace?: unknown; tool?: unknown }): { id: string | null; errors: Issue[] } {
        const args = (input ?? {}) as { namespace?: unknown; tool?: unknown }
        return toolIdOf(args.namespace, args.tool)
    }
}

/**
 * The public SchemaCheck: its statics guarded in place where the class is defined (src/errors/guard.ts), by a pure call, so
 * a bundle keeps the guard with every use of the class and drops both when nothing uses it.
 */
export const SchemaCheck = /* @__PURE__ */ guardStatics(SchemaCheckUnguarded, 'SchemaCheck')
