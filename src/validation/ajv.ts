import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped once more.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020

/**
 * A fresh Ajv 2020-12 instance configured for the spec's schemas. `strict: false` because the
 * normative grading schema does not compile in strict mode (01-model ⚠ A18); `allErrors` so a
 * caller sees every defect at once.
 */
export function createAjv(): Ajv2020 {
    const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true, verbose: true })
    addFormats(ajv)
    return ajv
}

/**
 * Compiles a schema on first use and keeps the compiled function. Compilation is a pure function
 * of a constant schema, so memoising it changes no result; it only moves a one-off cost.
 */
export function lazyValidator(schema: object): () => ValidateFunction {
    let compiled: ValidateFunction | null = null
    return () => {
        compiled ??= createAjv().compile(schema)
        return compiled
    }
}

export type { ErrorObject, ValidateFunction }
